import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { AdminTimeSlot, StaffBookingInput } from '../../../api/types';
import { useAppDispatch } from '../../../app/hooks';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useRefusal } from '../../../hooks/use-refusal';
import { SelectField } from '../../../components/form-field';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { SlotSummary } from '../../../components/slot-summary';
import { FormActions, StaffForm } from '../../../components/staff-form';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDate, formatTimeRange } from '../../../lib/dates';
import { problemCode } from '../../../lib/error-message';
import { hasErrorCode } from '../../../lib/staff-forms';
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

/**
 * The server's refusal of a booking sent with `confirmOverbooking: false` into a slot that has
 * no free seat (any more): payload `['seats', seats taken, capacity]`.
 */
const NOT_CONFIRMED = 'timeslot__overbooking_not_confirmed';

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
  /** Reloads the slot: others may have booked or held seats meanwhile. */
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
  const [pending, setPending] = useState<{
    body: StaffBookingInput;
    ticketCount: number;
    capacity: number;
  } | null>(null);
  // The refusal that opens the confirmation is no error to show.
  const failure = hasErrorCode(result.error, NOT_CONFIRMED) ? null : result.error;
  const refusal = useRefusal(failure, { email: idOf('email') });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = form.validate({ ...values, language });
    if (!body) return;
    if (isFull(slot)) {
      setPending({ body, ticketCount: slot.ticketCount, capacity: slot.capacity });
      return;
    }
    // Booked only while a seat is free: the server decides (the slot may have filled up while
    // the page was open, or in the same instant), and refuses otherwise.
    void bookNow({ ...body, confirmOverbooking: false });
  };

  const bookNow = async (body: StaffBookingInput) => {
    let bookingNumber: string;
    try {
      ({ bookingNumber } = await book({ roomId: slot.roomId, timeSlotId: slot.id, body }).unwrap());
    } catch (error) {
      if (hasErrorCode(error, NOT_CONFIRMED)) {
        const [, taken, capacity] = (problemCode(error)?.payload ?? []).map(Number);
        setPending({
          body,
          ticketCount: taken ?? slot.ticketCount,
          capacity: capacity ?? slot.capacity,
        });
        // The page's count and warning follow (a failed reload keeps the old ones).
        latest().catch(() => undefined);
      }
      return; // anything else is shown by the error box
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
      <StaffForm refusal={refusal} onSubmit={submit}>
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
        <FormActions
          submitLabel={isFull(slot) ? t('book.submit-overbook') : t('book.submit')}
          busy={result.isLoading}
          cancelTo={backTo}
          cancelLabel={t('book.cancel')}
        />
      </StaffForm>
      {pending ? (
        <ConfirmDialog
          title={t('book.confirm-title')}
          confirmLabel={t('book.confirm')}
          cancelLabel={t('book.confirm-cancel')}
          busy={result.isLoading}
          error={failure}
          onConfirm={() => bookNow({ ...pending.body, confirmOverbooking: true })}
          onCancel={() => setPending(null)}
        >
          <p>
            {t('book.confirm-text', {
              ticketCount: pending.ticketCount,
              capacity: pending.capacity,
              after: pending.ticketCount + 1,
              name: ownerName(pending.body),
            })}
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
