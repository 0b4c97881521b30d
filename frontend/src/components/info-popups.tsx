import { useEffect, useState } from 'react';
import { useAppSelector } from '../app/hooks';
import { useTranslation } from '../i18n/i18n-context';
import { formatDateTime } from '../lib/dates';
import { visibleNotifications } from '../lib/notifications';
import { selectNotifications } from '../stores/notifications-slice';

const REFRESH_MS = 1000;

/**
 * Short-lived notifications (docs/product.md#screens): date, title, optional description, styled by type.
 * Only entries younger than 10 seconds are shown; the list is refreshed every second. The
 * container is a polite live region that exists before any entry, so additions are announced.
 */
export function InfoPopups() {
  const { t } = useTranslation();
  const items = useAppSelector(selectNotifications);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), REFRESH_MS);
    return () => window.clearInterval(timer);
  }, []);

  const visible = visibleNotifications(items, now);

  return (
    <div className="info-popups" role="status" aria-label={t('popups-label')}>
      {visible.map((item) => (
        <div key={item.id} className={`info-popup info-popup--${item.type}`}>
          <p className="info-popup__title">{item.title}</p>
          {item.description ? <p className="info-popup__description">{item.description}</p> : null}
          <p className="info-popup__date">
            <time dateTime={new Date(item.date).toISOString()}>
              {formatDateTime(new Date(item.date))}
            </time>
          </p>
        </div>
      ))}
    </div>
  );
}
