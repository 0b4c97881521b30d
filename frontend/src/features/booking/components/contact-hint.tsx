import { useTranslation } from '../../../i18n/i18n-context';
import { problemCode } from '../../../lib/error-message';
import { useGetLibraryQuery } from '../api/booking-api';

/** The refusals of an address as such (not of a slot): the visitor may ask the library why. */
const ADDRESS_REFUSALS = new Set(['booking__email_blacklisted', 'booking__no_show_blocked']);

/**
 * Whom to write to when the visitor's address is refused (docs/product.md#one-person-one-key):
 * the library's address (`GET library`); nothing for other errors or without one.
 */
export function ContactHint({ error }: { error: unknown }) {
  const { t } = useTranslation('booking');
  const { data: library } = useGetLibraryQuery();
  const contact = library?.contactEmail;
  const code = problemCode(error)?.code;
  if (!contact || !code || !ADDRESS_REFUSALS.has(code)) return null;
  return (
    <p>
      {t('data.contact')} <a href={`mailto:${contact}`}>{contact}</a>
    </p>
  );
}
