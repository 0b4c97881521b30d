import { useState, type FormEvent } from 'react';
import { InputField, RequiredHint } from '../../../../components/form-field';
import { useTranslation } from '../../../../i18n/i18n-context';
import { useSeatPageTranslation } from './seat-page-texts';
import {
  type SeatCheckInResult,
  type SeatRef,
  useCheckInAtSeatMutation,
} from '../../api/seat-page-api';
import { SeatError } from './seat-error';

/**
 * Check-in at the seat (docs/product.md#at-the-seat): the booking number and the booking's
 * address; once checked in, the undo within its minutes.
 */
export function SeatCheckIn({ seat, email }: { seat: SeatRef; email: string }) {
  const { t } = useSeatPageTranslation();
  const { t: tc } = useTranslation();
  const [proof, setProof] = useState({ bookingNumber: '', email });
  const [missing, setMissing] = useState<{ bookingNumber?: boolean; email?: boolean }>({});
  const [done, setDone] = useState<SeatCheckInResult | null>(null);
  const [undone, setUndone] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [send, { isLoading }] = useCheckInAtSeatMutation();

  const run = async (undo: boolean) => {
    setFailure(null);
    try {
      const answer = await send({ ...seat, body: proof, undo }).unwrap();
      setDone(undo ? null : answer);
      setUndone(undo);
    } catch (error) {
      setFailure(error);
    }
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const empty = {
      bookingNumber: proof.bookingNumber.trim() === '',
      email: proof.email.trim() === '',
    };
    setMissing(empty);
    if (empty.bookingNumber || empty.email) {
      document.getElementById(empty.bookingNumber ? 'seat-booking-number' : 'seat-email')?.focus();
      return;
    }
    if (!isLoading) void run(false);
  };

  if (done)
    return (
      <section className="seat-page__action" aria-labelledby="seat-check-in-title">
        <h2 id="seat-check-in-title">{t('check-in.title')}</h2>
        <div className="notice notice--success" role="status">
          <p>{t('check-in.done')}</p>
        </div>
        <p>
          <button
            type="button"
            className="button button--secondary"
            disabled={isLoading}
            onClick={() => void run(true)}
          >
            {t('check-in.undo')}
          </button>
        </p>
        <p className="field__hint">{t('check-in.undo-hint', { count: done.undoMinutes })}</p>
        {failure ? <SeatError error={failure} /> : null}
      </section>
    );

  return (
    <section className="seat-page__action" aria-labelledby="seat-check-in-title">
      <h2 id="seat-check-in-title">{t('check-in.title')}</h2>
      <p>{t('check-in.intro')}</p>
      {undone ? (
        <div className="notice" role="status">
          <p>{t('check-in.undone')}</p>
        </div>
      ) : null}
      <form className="form" noValidate onSubmit={submit}>
        <RequiredHint />
        <InputField
          id="seat-booking-number"
          label={t('check-in.booking-number')}
          hint={t('check-in.booking-number-hint')}
          required
          autoCapitalize="characters"
          autoComplete="off"
          value={proof.bookingNumber}
          error={missing.bookingNumber ? tc('validation.required') : undefined}
          onChange={(event) => setProof({ ...proof, bookingNumber: event.target.value })}
        />
        <InputField
          id="seat-email"
          label={t('check-in.email')}
          type="email"
          autoComplete="email"
          required
          value={proof.email}
          error={missing.email ? tc('validation.required') : undefined}
          onChange={(event) => setProof({ ...proof, email: event.target.value })}
        />
        {failure ? <SeatError error={failure} /> : null}
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={isLoading}>
            {t('check-in.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
