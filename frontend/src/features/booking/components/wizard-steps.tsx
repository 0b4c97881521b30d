import { useTranslation } from '../../../i18n/i18n-context';
import { stepState, WIZARD_STEPS, type WizardStep } from '../lib/wizard';

/** The four booking steps; the current one carries aria-current="step". */
export function WizardSteps({ current }: { current: WizardStep }) {
  const { t } = useTranslation('booking');
  return (
    <nav className="wizard" aria-label={t('wizard.label')}>
      <ol className="wizard__steps">
        {WIZARD_STEPS.map((step, index) => {
          const state = stepState(step, current);
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
