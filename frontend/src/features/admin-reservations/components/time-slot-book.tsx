import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { AdminTimeSlot, StaffBookingInput } from '../../../api/types';
import { useAppDispatch } from '../../../app/hooks';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorBox } from '../../../components/error-box';
import { RequiredHint, SelectField } from '../../../components/form-field';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { SlotSummary } from '../../../components/slot-summary';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDate, formatTimeRange } from '../../../lib/dates';
import { notify } from '../../../stores/notifications-slice';
import { useBookTimeSlotMutation, useGetBookingTimeSlotQuery } from '../api/admin-reservations-api';
import {
  checkStaffBookingForm,
  EMPTY_OWNER,
  OWNER_FIELDS,
  ownerName,
  type OwnerField,
  type OwnerValues,
} from '../utils/owner-form';
import { slotEditPath } from '../utils/paths';
import { OwnerFields } from './owner-fields';

const LANGUAGES = ['de', 'en'] as const;
type BookingLanguage = (typeof LANGUAGES)[number];

const idOf = (field: OwnerField | 'salutation' | 'accessibility' | 'language') =>
  `slot-book-${field}`;

/** A slot is full when its tickets reach its capacity; booking more overbooks it. */
function isFull(slot: Pick<AdminTimeSlot, 'ticketCount' | 'capacity'>): boolean {
  return slot.ticketCount >= slot.capacity;
}

/**
 * Route `/room/:roomId/time-slot-book/:timeSlotId`: an administrator books a person into a slot.
 * A full slot is only a warning: staff may book beyond the capacity (the slot is overbooked then).
 */
export function TimeSlotBook() {
  const { t } = useTranslation('admin-reservations');
  const { roomId = '', timeSlotId = '' } = useParams();
  const { data, error, refetch } = useGetBookingTimeSlotQuery({ roomId, timeSlotId });
  const backTo = slotEditPath(roomId, timeSlotId);

  return (
    <Page title={t('book.title')}>
      <LoadingContainer data={data} error={error} backLink={{ to: backTo, label: t('book.back') }}>
        {(slot) => (
          <TimeSlotBookForm
            key={slot.id}
            slot={slot}
            backTo={backTo}
            latest={() => refetch().unwrap()}
          />
        )}
      </LoadingContainer>
    </Page>
  );
}

interface FormProps {
  slot: AdminTimeSlot;
  backTo: string;
  /** The slot as the server has it now: others may have booked or held seats meanwhile. */
  latest: () => Promise<AdminTimeSlot>;
}

function TimeSlotBookForm({ slot, backTo, latest }: FormProps) {
  const { t, i18n } = useTranslation('admin-reservations');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [values, setValues] = useState<OwnerValues>(EMPTY_OWNER);
  const [language, setLanguage] = useState<BookingLanguage>(i18n.language === 'en' ? 'en' : 'de');
  const [book, result] = useBookTimeSlotMutation();
  const form = useValidatedForm(checkStaffBookingForm, OWNER_FIELDS, idOf);
  const range = formatTimeRange(slot.startTime, slot.endTime);
  /** A booking that would overbook the slot, waiting for the confirmation; with the slot's count. */
  const [pending, setPending] = useState<{ body: StaffBookingInput; slot: AdminTimeSlot } | null>(
    null,
  );

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = form.validate({ ...values, language });
    if (!body) return;
    // Asked again at submit: the page may have been open while the slot filled up.
    let current = slot;
    try {
      current = await latest();
    } catch {
      // the count of the page's load decides then
    }
    if (isFull(current)) {
      setPending({ body, slot: current });
      return;
    }
    await bookNow(body);
  };

  const bookNow = async (body: StaffBookingInput) => {
    let bookingNumber: string;
    try {
      ({ bookingNumber } = await book({ roomId: slot.roomId, timeSlotId: slot.id, body }).unwrap());
    } catch {
      return; // shown by the error box
    }
    dispatch(
      notify({
        title: t('book.booked', {
          name: ownerName(body),
          date: formatDate(slot.date),
          range,
        }),
        description: t('book.booking-number', { number: bookingNumber }),
      }),
    );
    setPending(null);
    await navigate(backTo);
  };

  return (
    <>
      <SlotSummary slot={slot} />
      {isFull(slot) ? (
        <p className="notice notice--warning">
          {t('book.full-warning', { ticketCount: slot.ticketCount, capacity: slot.capacity })}
        </p>
      ) : null}
      <form className="form" noValidate onSubmit={submit}>
        <RequiredHint />
        {result.error ? <ErrorBox error={result.error} /> : null}
        <OwnerFields
          idOf={idOf}
          values={values}
          messageOf={form.messageOf}
          onText={(field, value) => {
            const next = { ...values, [field]: value };
            setValues(next);
            form.revalidate({ ...next, language });
          }}
          onChange={(change) => setValues((current) => ({ ...current, ...change }))}
        />
        <SelectField
          id={idOf('language')}
          label={t('book.language')}
          hint={t('book.language-hint')}
          value={language}
          options={LANGUAGES.map((value) => ({ value, label: t(`book.languages.${value}`) }))}
          onChange={(event) => setLanguage(event.target.value === 'en' ? 'en' : 'de')}
        />
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={result.isLoading}>
            {isFull(slot) ? t('book.submit-overbook') : t('book.submit')}
          </button>
          <Link className="button button--secondary" to={backTo}>
            {t('book.cancel')}
          </Link>
        </div>
      </form>
      {pending ? (
        <ConfirmDialog
          title={t('book.confirm-title')}
          confirmLabel={t('book.confirm')}
          cancelLabel={t('book.confirm-cancel')}
          busy={result.isLoading}
          error={result.error}
          onConfirm={() => bookNow(pending.body)}
          onCancel={() => setPending(null)}
        >
          <p>
            {t('book.confirm-text', {
              ticketCount: pending.slot.ticketCount,
              capacity: pending.slot.capacity,
              after: pending.slot.ticketCount + 1,
              name: ownerName(pending.body),
            })}
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
