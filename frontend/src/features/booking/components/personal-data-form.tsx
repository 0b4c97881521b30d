import { lazy, Suspense, useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { RefusalScope, RequiredHint } from '../../../components/form-field';
import { Page } from '../../../components/page';
import { useRefusal } from '../../../hooks/use-refusal';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { useTranslation } from '../../../i18n/i18n-context';
import { problemCode } from '../../../lib/error-message';
import { useCheckEmailMutation, useGetSettingsQuery } from '../api/booking-api';
import {
  checkPersonalData,
  EMPTY_PERSONAL_DATA,
  TEXT_FIELDS,
  type PersonalData,
} from '../lib/personal-data';
import { useBooking } from './booking-context';
import { personalFieldId as idOf, PersonalDataFields } from './personal-data-fields';
import { BookedRedirect, WizardSteps } from './wizard-steps';
import type { Claimed } from './visitor-account';

// Only where the library lets visitors sign in with the campus identity.
const VisitorAccount = lazy(() => import('./visitor-account'));

/**
 * Route `/your-personal-data`: the visitor's data (docs/product.md#validation), validated before going on
 * (focus moves to the first invalid field), kept in the session, then on to `/summary`.
 */
export function PersonalDataForm() {
  const { t } = useTranslation('booking');
  const navigate = useNavigate();
  const { t: te } = useTranslation('common-error');
  const {
    personalData,
    savePersonalData,
    touch,
    touchOnActivity,
    tickets,
    cartLoading,
    expired,
    transactionId,
  } = useBooking();
  const [values, setValues] = useState<PersonalData>(() => personalData ?? EMPTY_PERSONAL_DATA);
  const form = useValidatedForm(checkPersonalData, TEXT_FIELDS, idOf);
  const [checkEmail, { isLoading: checking }] = useCheckEmailMutation();
  // The refusal of the address itself (docs/product.md#one-person-one-key), shown here rather
  // than at the last step; cleared when the address changes.
  const [refused, setRefusal] = useState<unknown>(null);
  const refusal = useRefusal(refused, { email: idOf('email') });
  const way = useGetSettingsQuery().data?.visitorSignIn?.[0];
  // What the campus identity supplied: filled in and kept.
  const [claimed, setClaimed] = useState<Claimed>();
  const onClaimed = useCallback((c: Claimed | undefined) => {
    setClaimed(c);
    if (c) setValues((v) => ({ ...v, ...c }));
  }, []);

  // Moving on to this step keeps the cart alive.
  useEffect(() => touch(), [touch]);

  // The cart expired here: the form stays, and what was typed is kept in the session for when
  // the visitor has chosen slots again.
  useEffect(() => {
    if (expired) savePersonalData(values);
  }, [expired, values, savePersonalData]);

  const change = <K extends keyof PersonalData>(field: K, value: PersonalData[K]) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (field === 'email') setRefusal(null);
    touchOnActivity();
    form.revalidate(next);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (expired || checking || !form.validate(values)) return;
    try {
      await checkEmail({ email: values.email.trim(), transactionId }).unwrap();
    } catch (error) {
      // A refusal stops here; a failed check (offline) leaves the decision to the booking.
      if (problemCode(error)) {
        setRefusal(error);
        return;
      }
    }
    savePersonalData(values);
    void navigate('/summary');
  };

  return (
    <Page title={t('data.heading')}>
      <BookedRedirect />
      <WizardSteps current="data" reached={cartLoading || tickets.length > 0} />
      {expired ? (
        <div className="notice notice--warning" role="alert">
          <p>{te('transaction__expired')}</p>
          <p>
            <Link to="/">{t('cart.choose-room')}</Link>
          </p>
        </div>
      ) : null}
      <RefusalScope refusal={refusal}>
        <form className="form" noValidate onSubmit={(event) => void submit(event)}>
          {way ? (
            <Suspense fallback={null}>
              <VisitorAccount way={way} onClaimed={onClaimed} />
            </Suspense>
          ) : null}
          <RequiredHint />
          <PersonalDataFields
            values={values}
            change={change}
            messageOf={form.messageOf}
            refusal={refusal}
            refused={refused}
            locked={claimed}
          />
          <div className="form__actions">
            {expired ? (
              // The cart is gone: no way on to a summary without tickets; the data stays for later.
              <Link className="button button--primary" to="/">
                {t('cart.choose-room')}
              </Link>
            ) : (
              <>
                <button type="submit" className="button button--primary">
                  {t('data.next')}
                </button>
                <Link className="button button--secondary" to="/your-reservations">
                  {t('data.back')}
                </Link>
              </>
            )}
          </div>
        </form>
      </RefusalScope>
    </Page>
  );
}
