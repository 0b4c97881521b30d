import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Page } from '../../../components/page';

export type BookingView =
  'room' | 'your-reservations' | 'personal-data' | 'summary' | 'confirmation';

/**
 * TODO(issue #4): replace with the booking screens (room calendar and cart, cart list, personal
 * data, summary, reservation confirmation). Until then each visitor route says it is coming.
 */
export function BookingPlaceholder({ view }: { view: BookingView }) {
  const { t } = useTranslation('booking');
  return (
    <Page title={t(`placeholder.${view}`)}>
      <p className="notice notice--info">{t('placeholder.coming')}</p>
      <p>
        <Link to="/">{t('placeholder.back')}</Link>
      </p>
    </Page>
  );
}
