import { useEffect, useState } from 'react';
import { ClosureInput as ClosureContract } from '@rr/contracts/closures';
import type { ClosureResult } from '../../../api/types';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { CheckboxField, InputField } from '../../../components/form-field';
import { RadioGroupField } from '../../../components/radio-group';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { useTranslation } from '../../../i18n/i18n-context';
import { formCheck } from '../../../lib/form-check';
import {
  useCloseRoomsMutation,
  useGetClosurePreviewQuery,
  type ClosureScope,
} from '../api/admin-closures-api';
import { closureCountsText } from '../utils/closure-text';

interface ClosureValues {
  reason: string;
  reasonEn: string;
  cancelBookings: boolean;
}

/** Whether the closure cancels the day's bookings: staff's explicit choice, none by default. */
type BookingsChoice = 'cancel' | 'keep' | null;
const CHOICE_ID = 'closure-bookings';

const FIELDS = ['reason', 'reasonEn'] as const;
// Its own ids: the dialog also opens over the closure page, whose form has reason fields too.
const idOf = (field: (typeof FIELDS)[number]) =>
  field === 'reason' ? 'closure-dialog-reason' : 'closure-dialog-reason-en';

interface ClosureDialogProps {
  scope: ClosureScope;
  /** The reason proposed (e.g. the holiday's name). */
  defaultReason: string;
  /** Its English text proposed (e.g. the holiday's English name). */
  defaultReasonEn?: string | null | undefined;
  /**
   * Called once the question is settled: with the closure's answer, or null when staff did not
   * close or there was nothing to close (no open slot in the scope).
   */
  onDone: (result: ClosureResult | null) => void;
  /** Called instead of onDone(null) when there is nothing to close. */
  onNothing?: () => void;
  /** The question; by default the general one. */
  title?: string;
}

/**
 * docs/product.md#closures: the preview's counts of a closure and the question whether to close
 * the slots (optionally cancelling their bookings) with a reason. Asks nothing when the scope has
 * no open slot.
 */
export function ClosureDialog({
  scope,
  defaultReason,
  defaultReasonEn,
  onDone,
  onNothing,
  title,
}: ClosureDialogProps) {
  const { t } = useTranslation('admin-holidays');
  const { data: preview, error: previewError } = useGetClosurePreviewQuery(scope);
  const [closeRooms, { isLoading, error }] = useCloseRoomsMutation();
  const [reason, setReason] = useState(defaultReason);
  const [reasonEn, setReasonEn] = useState(defaultReasonEn ?? '');
  const [choice, setChoice] = useState<BookingsChoice>(null);
  const [choiceMissing, setChoiceMissing] = useState(false);
  const check = formCheck(ClosureContract, (v: ClosureValues) => ({
    fromDate: scope.fromDate,
    untilDate: scope.untilDate,
    ...(scope.roomIds?.length ? { roomIds: scope.roomIds } : {}),
    ...v,
  }));
  const form = useValidatedForm(check, FIELDS, idOf);
  const nothingToClose = preview !== undefined && preview.slots - preview.closed === 0;

  useEffect(() => {
    // No open slot (or the preview failed): the holiday stays as it is, nothing to ask.
    if (nothingToClose) (onNothing ?? (() => onDone(null)))();
    else if (previewError) onDone(null);
  }, [nothingToClose, previewError, onDone, onNothing]);

  if (!preview || nothingToClose) return null;

  // With bookings the choice is explicit (docs/product.md#closures); without, nothing to cancel.
  const hasBookings = preview.bookings > 0;
  const values: ClosureValues = { reason, reasonEn, cancelBookings: choice === 'cancel' };
  const confirm = async () => {
    const missing = hasBookings && choice === null;
    setChoiceMissing(missing);
    const body = form.validate(values);
    if (!body) return;
    if (missing) {
      document.getElementById(CHOICE_ID)?.focus();
      return;
    }
    try {
      onDone(await closeRooms(body).unwrap());
    } catch {
      // shown in the dialog
    }
  };

  return (
    <ConfirmDialog
      title={title ?? t('closure.dialog-title')}
      confirmLabel={t('closure.confirm')}
      cancelLabel={t('closure.keep-open')}
      onConfirm={confirm}
      onCancel={() => onDone(null)}
      busy={isLoading}
      error={error}
    >
      <p>{closureCountsText(t, preview)}</p>
      <InputField
        id={idOf('reason')}
        label={t('closure.reason')}
        hint={t('closure.reason-hint')}
        required
        maxLength={500}
        value={reason}
        error={form.messageOf('reason')}
        onChange={(event) => {
          setReason(event.target.value);
          form.revalidate({ ...values, reason: event.target.value });
        }}
      />
      <InputField
        id={idOf('reasonEn')}
        label={t('closure.reason-en')}
        hint={t('closure.reason-en-hint')}
        lang="en"
        maxLength={500}
        value={reasonEn}
        error={form.messageOf('reasonEn')}
        onChange={(event) => {
          setReasonEn(event.target.value);
          form.revalidate({ ...values, reasonEn: event.target.value });
        }}
      />
      {hasBookings ? (
        <RadioGroupField
          id={CHOICE_ID}
          legend={t('closure.bookings-legend')}
          required
          options={[
            { value: 'cancel', label: t('closure.cancel-bookings', { count: preview.bookings }) },
            { value: 'keep', label: t('closure.keep-bookings') },
          ]}
          value={choice}
          error={choiceMissing && choice === null ? t('closure.choose-bookings') : undefined}
          onChange={(value) => setChoice(value === 'cancel' ? 'cancel' : 'keep')}
        />
      ) : (
        <CheckboxField
          id="closure-cancel-bookings"
          label={t('closure.cancel-bookings', { count: 0 })}
          checked={false}
          disabled
          onChange={() => undefined}
        />
      )}
    </ConfirmDialog>
  );
}
