import { useEffect, useState } from 'react';
import { ClosureInput as ClosureContract } from '@rr/contracts/closures';
import type { ClosureResult } from '../../../api/types';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { CheckboxField, InputField } from '../../../components/form-field';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { useTranslation } from '../../../i18n/i18n-context';
import { formCheck } from '../../../lib/form-check';
import {
  useCloseRoomsMutation,
  useGetClosurePreviewQuery,
  type ClosureScope,
} from '../api/admin-closures-api';

interface ClosureValues {
  reason: string;
  reasonEn: string;
  cancelBookings: boolean;
}

const FIELDS = ['reason', 'reasonEn'] as const;
const idOf = (field: (typeof FIELDS)[number]) =>
  field === 'reason' ? 'closure-reason' : 'closure-dialog-reason-en';

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
  const [values, setValues] = useState<ClosureValues>({
    reason: defaultReason,
    reasonEn: defaultReasonEn ?? '',
    cancelBookings: false,
  });
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

  const confirm = async () => {
    const body = form.validate(values);
    if (!body) return;
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
      <p>{t('closure.counts', { ...preview, open: preview.slots - preview.closed })}</p>
      <InputField
        id={idOf('reason')}
        label={t('closure.reason')}
        hint={t('closure.reason-hint')}
        required
        maxLength={500}
        value={values.reason}
        error={form.messageOf('reason')}
        onChange={(event) => {
          const next = { ...values, reason: event.target.value };
          setValues(next);
          form.revalidate(next);
        }}
      />
      <InputField
        id={idOf('reasonEn')}
        label={t('closure.reason-en')}
        hint={t('closure.reason-en-hint')}
        lang="en"
        maxLength={500}
        value={values.reasonEn}
        error={form.messageOf('reasonEn')}
        onChange={(event) => {
          const next = { ...values, reasonEn: event.target.value };
          setValues(next);
          form.revalidate(next);
        }}
      />
      <CheckboxField
        id="closure-cancel-bookings"
        label={t('closure.cancel-bookings', { count: preview.bookings })}
        checked={values.cancelBookings}
        disabled={preview.bookings === 0}
        onChange={(event) => setValues({ ...values, cancelBookings: event.target.checked })}
      />
    </ConfirmDialog>
  );
}
