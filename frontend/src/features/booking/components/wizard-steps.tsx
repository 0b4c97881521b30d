import { Navigate } from 'react-router';
import { useTranslation } from '../../../i18n/i18n-context';
import { stepState, WIZARD_STEPS, type WizardStep } from '../lib/wizard';
import { useBooking } from './booking-context';

/**
 * The four booking steps; the current one carries aria-current="step". `reached` false (e.g. the
 * summary with an empty cart) shows the earlier steps as still to do, not done.
 */
export function WizardSteps({
  current,
  reached = true,
}: {
  current: WizardStep;
  reached?: boolean;
}) {
  const { t } = useTranslation('booking');
  return (
    <nav className="wizard" aria-label={t('wizard.label')}>
      <ol className="wizard__steps">
        {WIZARD_STEPS.map((step, index) => {
          const state = stepState(step, current, reached);
          return (
            <li
              key={step}
              className={`wizard__step wizard__step--${state}`}
              aria-current={state === 'current' ? 'step' : undefined}
            >
              <span className="wizard__number" aria-hidden="true">
                {index + 1}
              </span>
              {t(`wizard.${step}`)}
              {state === 'done' ? (
                <span className="visually-hidden"> {t('wizard.done')}</span>
              ) : null}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/**
 * On the cart and data steps after a booking (no new cart yet): the booking's confirmation
 * instead, so the browser's back button from it (the summary's entry was replaced by it) never
 * shows an empty step. Not on the summary, which itself goes on to the confirmation as it books.
 */
export function BookedRedirect() {
  const { transactionId, bookedOwnerId } = useBooking();
  return !transactionId && bookedOwnerId ? (
    <Navigate to={`/reservation-confirmation/${encodeURIComponent(bookedOwnerId)}`} replace />
  ) : null;
}
