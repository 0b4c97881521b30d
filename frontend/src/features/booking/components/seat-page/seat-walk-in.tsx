import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { RefusalScope, RequiredHint } from '../../../../components/form-field';
import { useRefusal } from '../../../../hooks/use-refusal';
import { useValidatedForm } from '../../../../hooks/use-validated-form';
import { useSeatPageTranslation } from './seat-page-texts';
import { formatTime } from '../../../../lib/dates';
import { refusedFieldOf } from '../../../../lib/refused-field';
import { useConfig } from '../../../../app/config-context';
import { PersonalDataFields, personalFieldId } from '../personal-data-fields';
import {
  checkPersonalData,
  EMPTY_PERSONAL_DATA,
  TEXT_FIELDS,
  toBookingInput,
  type PersonalData,
} from '../../lib/personal-data';
import { humanCheckToken } from '../../lib/recaptcha';
import { type SeatRef, type WalkInResult, useWalkInAtSeatMutation } from '../../api/seat-page-api';
import { SeatError } from './seat-error';

/**
 * A walk-in (docs/product.md#at-the-seat): the booking form's personal data, then the free seat
 * is booked at once for the rest of the slot under way (checked in with it where the room uses
 * check-in). The booking's rules are the server's; a refusal shows below the form.
 */
export function SeatWalkIn({
  seat,
  slot,
  checkIn,
  initial,
  onBooked,
}: {
  seat: SeatRef;
  slot: { id: string; endTime: string };
  /** The room uses check-in: the walk-in is checked in with the booking. */
  checkIn: boolean;
  initial: PersonalData | null;
  onBooked: (result: WalkInResult) => void;
}) {
  const { t } = useSeatPageTranslation();
  const { language, recaptchaPublicToken, recaptchaSrc } = useConfig();
  const [values, setValues] = useState<PersonalData>(() => initial ?? EMPTY_PERSONAL_DATA);
  const form = useValidatedForm(checkPersonalData, TEXT_FIELDS, personalFieldId);
  const [failure, setFailure] = useState<unknown>(null);
  // A refusal of the address shows below it (as in the booking form); any other below the form.
  const ofAddress = refusedFieldOf(failure) === 'email' ? failure : null;
  const refusal = useRefusal(ofAddress, { email: personalFieldId('email') });
  const [book, { isLoading }] = useWalkInAtSeatMutation();

  const change = <K extends keyof PersonalData>(field: K, value: PersonalData[K]) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (field === 'email') setFailure(null);
    form.revalidate(next);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isLoading || !form.validate(values)) return;
    setFailure(null);
    try {
      const recaptchaToken = await humanCheckToken(recaptchaPublicToken, recaptchaSrc);
      const body = { ...toBookingInput(values, language), timeSlotId: slot.id };
      onBooked(await book({ ...seat, body, recaptchaToken }).unwrap());
    } catch (error) {
      setFailure(error instanceof Error ? { error: 'recaptcha__validation_error' } : error);
    }
  };

  return (
    <section className="seat-page__action" aria-labelledby="seat-walk-in-title">
      <h2 id="seat-walk-in-title">{t('walk-in.title')}</h2>
      <p>
        {t('walk-in.intro', { end: formatTime(slot.endTime) })}
        {checkIn ? ` ${t('walk-in.intro-check-in')}` : null}
      </p>
      <RefusalScope refusal={refusal}>
        <form className="form" noValidate onSubmit={(event) => void submit(event)}>
          <RequiredHint />
          <PersonalDataFields
            values={values}
            change={change}
            messageOf={form.messageOf}
            refusal={refusal}
            refused={ofAddress}
          />
          {failure && !ofAddress ? <SeatError error={failure} /> : null}
          <div className="form__actions">
            <button type="submit" className="button button--primary" disabled={isLoading}>
              {t('walk-in.submit')}
            </button>
          </div>
        </form>
      </RefusalScope>
    </section>
  );
}

/** The walk-in booked: the seat, until when, the booking number and the booking's page. */
export function WalkInDone({ result, endTime }: { result: WalkInResult; endTime: string }) {
  const { t } = useSeatPageTranslation();
  return (
    <div className="notice notice--success" role="status">
      <p>
        {t('walk-in.done', {
          label: result.seat?.label ?? '',
          end: formatTime(endTime),
          number: result.bookingNumber,
        })}
      </p>
      {result.checkedInAt ? <p>{t('walk-in.checked-in')}</p> : null}
      <p>
        <Link to={`/reservation-confirmation/${encodeURIComponent(result.ownerId)}`}>
          {t('walk-in.to-booking')}
        </Link>
      </p>
    </div>
  );
}
