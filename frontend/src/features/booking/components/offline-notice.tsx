import { useEffect, useState } from 'react';
import { useConfig } from '../../../app/config-context';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDateMinute } from '../../../lib/dates';
import { TICKETS_CACHE } from '../../../lib/offline-caches';
import { resolveApiUrl } from '../../../lib/url';

/**
 * The tickets shown while offline are the ones the service worker saved when the page was last
 * read online (docs/product.md#installable-app): the notice says so, with the time of that read
 * (the saved answer's `Date`). Loaded only when the device is offline: a chunk of its own.
 */
export default function OfflineNotice({ ownerId }: { ownerId: string }) {
  const { t } = useTranslation('booking');
  const { baseApiUrl } = useConfig();
  const [savedAt, setSavedAt] = useState<Date | null>(null);

  useEffect(() => {
    const url = resolveApiUrl(baseApiUrl, `owners/${encodeURIComponent(ownerId)}/tickets`);
    // No caches without a secure context (no worker either, then): the notice has no time.
    if (!('caches' in window)) return;
    let current = true;
    void caches
      .open(TICKETS_CACHE)
      .then((cache) => cache.match(url, { ignoreVary: true }))
      .then((saved) => {
        const date = saved?.headers.get('date');
        if (current && date) setSavedAt(new Date(date));
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [baseApiUrl, ownerId]);

  return (
    <p className="notice notice--warning" role="status">
      {savedAt
        ? t('confirmation.offline', { time: formatDateMinute(savedAt) })
        : t('confirmation.offline-unknown')}
    </p>
  );
}
