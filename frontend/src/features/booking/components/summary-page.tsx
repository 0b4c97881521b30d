import { useEffect, useRef, useState } from 'react';
import { Loading } from '../../../components/loading-container';
import { Link, useNavigate } from 'react-router';
import { useConfig } from '../../../app/config-context';
import { EmptyState } from '../../../components/empty-state';
import { Page } from '../../../components/page';
import { useRevealOnShow } from '../../../hooks/use-refusal';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatLongDate } from '../../../lib/dates';
import { errorMessageKeys, errorMessageParams, problemCode } from '../../../lib/error-message';
import { useBookCartMutation } from '../api/booking-api';
import { invalidFields, toBookingInput } from '../lib/personal-data';
import { useBooking } from './booking-context';
import { ContactHint } from './contact-hint';
import type { BookedState } from './reservation-confirmation';
import { TicketList } from './ticket-list';
import { WizardSteps } from './wizard-steps';

/**
 * Books the cart with the personal data, once at a time: after the touch in flight (the summary
 * touches the cart on arrival) so the server never sees the touch after the booking.
 */
function useBookWithData() {
  const { language } = useConfig();
  const { transactionId, personalData, touch, touchSettled, finishBooking } = useBooking();
  const [bookCart, { isLoading }] = useBookCartMutation();
  const [failure, setFailure] = useState<unknown>(null);
  const navigate = useNavigate();
  // Set while a booking waits for the touch in flight, before the mutation's own isLoading.
  const booking = useRef(false);

  useEffect(() => touch(), [touch]);

  const book = async () => {
    if (!transactionId || !personalData || isLoading || booking.current) return;
    booking.current = true;
    setFailure(null);
    try {
      await touchSettled();
      const result = await bookCart({
        transactionId,
        owner: toBookingInput(personalData, language),
      }).unwrap();
      finishBooking(result.ownerId);
      const booked: BookedState = { bookedEmail: personalData.email.trim() };
      // Replaces /summary in the history: back does not lead to an empty summary.
      await navigate(`/reservation-confirmation/${encodeURIComponent(result.ownerId)}`, {
        replace: true,
        state: booked,
      });
    } catch (error) {
      setFailure(error);
    } finally {
      booking.current = false;
    }
  };
  return { book, isLoading, failure };
}

/**
 * Route `/summary`: review the tickets and the data and book. On success the cart and the
 * personal data are cleared and the visitor lands on the owner's confirmation page
 * (`/reservation-confirmation/{ownerId}`, the address of the confirmation mail's link), which
 * shows the booking number and the tickets and survives a reload.
 */
export function SummaryPage() {
  const { t } = useTranslation('booking');
  const { t: te } = useTranslation('common-error');
  const { language } = useConfig();
  const { tickets, cartLoading, personalData, settings } = useBooking();
  const { book, isLoading, failure } = useBookWithData();
  const failureBox = useRef<HTMLDivElement>(null);
  useRevealOnShow(failureBox, failure);

  const fields = failure ? invalidFields(failure) : [];
  const keys = failure ? errorMessageKeys(failure) : [];
  // A limit that counts earlier bookings is only known now; name it, and the day
  // the refusal names (its payload: the rule, the day, the maximum).
  const [, day, max] = problemCode(failure)?.payload ?? [];
  const scope = settings?.limitsPerSite ? '-per-site' : '';
  const limitHint =
    day && max && keys[0]?.endsWith('max_tickets_per_day_reached')
      ? t(`summary.day-limit${scope}`, { count: Number(max), day: formatLongDate(day, language) })
      : settings && keys.some((key) => key.endsWith('max_tickets_by_user_reached'))
        ? t(`summary.visitor-limit${scope}`, { count: settings.maxTicketsPerVisitor })
        : null;

  return (
    <Page title={t('summary.title')}>
      <WizardSteps current="finish" reached={cartLoading || tickets.length > 0} />
      {cartLoading ? (
        <Loading />
      ) : tickets.length === 0 ? (
        <>
          <EmptyState>{t('cart.empty')}</EmptyState>
          <p>
            <Link to="/">{t('cart.choose-room')}</Link>
          </p>
        </>
      ) : (
        <>
          <h2>{t('summary.tickets')}</h2>
          <TicketList tickets={tickets} />
          <p>
            <Link to="/your-reservations">{t('summary.change-tickets')}</Link>
          </p>
          <h2>{t('summary.data')}</h2>
          {personalData ? (
            <>
              <dl className="summary-list">
                <dt>{t('summary.name')}</dt>
                <dd>
                  {[
                    personalData.salutation === 'NONE'
                      ? ''
                      : t(`data.salutations.${personalData.salutation}`),
                    personalData.title,
                    personalData.firstName,
                    personalData.lastName,
                  ]
                    .filter((part) => part.trim() !== '')
                    .join(' ')}
                </dd>
                {personalData.organisation.trim() ? (
                  <>
                    <dt>{t('data.organisation')}</dt>
                    <dd>{personalData.organisation}</dd>
                  </>
                ) : null}
                <dt>{t('data.email')}</dt>
                <dd>{personalData.email}</dd>
                <dt>{t('data.phone')}</dt>
                <dd>{personalData.phone}</dd>
                <dt>{t('data.accessibility-short')}</dt>
                <dd>{t(personalData.accessibility ? 'summary.yes' : 'summary.no')}</dd>
              </dl>
              <p>
                <Link to="/your-personal-data">{t('summary.change-data')}</Link>
              </p>
              {failure ? (
                <div className="error-box" role="alert" tabIndex={-1} ref={failureBox}>
                  <p className="error-box__message">{t('summary.failed')}</p>
                  <p>{te(keys, errorMessageParams(failure))}</p>
                  <ContactHint error={failure} />
                  {limitHint ? (
                    <p>
                      {limitHint} <Link to="/your-reservations">{t('summary.change-tickets')}</Link>
                    </p>
                  ) : null}
                  {fields.length > 0 ? (
                    <p>
                      {t('summary.check-fields', {
                        fields: fields.map((field) => t(`data.${field}`)).join(', '),
                      })}{' '}
                      <Link to="/your-personal-data">{t('summary.change-data')}</Link>
                    </p>
                  ) : null}
                </div>
              ) : null}
              <div className="form__actions">
                <button
                  type="button"
                  className="button button--primary"
                  aria-disabled={isLoading || undefined}
                  onClick={() => void book()}
                >
                  {t(isLoading ? 'summary.booking' : 'summary.book')}
                </button>
              </div>
            </>
          ) : (
            <p className="notice">
              {t('summary.no-data')} <Link to="/your-personal-data">{t('summary.to-data')}</Link>
            </p>
          )}
        </>
      )}
    </Page>
  );
}
