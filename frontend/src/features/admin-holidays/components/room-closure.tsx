import { useCallback, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ClosurePreviewQuery } from '@rr/contracts/closures';
import type { ClosureResult } from '../../../api/types';
import { useAppDispatch } from '../../../app/hooks';
import { ErrorBox } from '../../../components/error-box';
import { InputField, RequiredHint, SelectField } from '../../../components/form-field';
import { Page } from '../../../components/page';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { todayIso } from '../../../lib/dates';
import { formCheck } from '../../../lib/form-check';
import { notify } from '../../../stores/notifications-slice';
import { useGetClosureRoomsQuery, type ClosureScope } from '../api/admin-closures-api';
import { closureResultText } from '../utils/closure-text';
import { ClosureDialog } from './closure-dialog';

interface RangeValues {
  roomId: string;
  fromDate: string;
  untilDate: string;
  reason: string;
  reasonEn: string;
}

const FIELDS = ['fromDate', 'untilDate'] as const;
type RangeField = (typeof FIELDS)[number];
const idOf = (field: RangeField | 'roomId' | 'reason' | 'reasonEn') => `closure-${field}`;
/** The dates as the preview checks them (the end not before the start). */
const checkRange = formCheck(ClosurePreviewQuery, (v: RangeValues) => ({
  fromDate: v.fromDate,
  untilDate: v.untilDate,
}));

/**
 * Route `/closures` ("Raum schließen", admins): close one room or all rooms for a day or a date
 * range with a reason; the dialog shows the preview's counts before anything is closed
 * (docs/product.md#closures).
 */
export function RoomClosure() {
  const { t } = useTranslation('admin-holidays');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const rooms = useGetClosureRoomsQuery();
  const textIn = useTextIn();
  const [values, setValues] = useState<RangeValues>(() => {
    const today = todayIso();
    return { roomId: '', fromDate: today, untilDate: today, reason: '', reasonEn: '' };
  });
  const [asked, setAsked] = useState<{
    scope: ClosureScope;
    reason: string;
    reasonEn: string;
  } | null>(null);
  const form = useValidatedForm(checkRange, FIELDS, idOf);

  const change = (field: keyof RangeValues, value: string) => {
    const next = { ...values, [field]: value };
    // A later start moves the end along: a single day is the usual closure.
    if (field === 'fromDate' && next.untilDate < value) next.untilDate = value;
    setValues(next);
    form.revalidate(next);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const range = form.validate(values);
    if (!range) return;
    setAsked({
      scope: {
        fromDate: range.fromDate,
        untilDate: range.untilDate,
        ...(values.roomId ? { roomIds: [values.roomId] } : {}),
      },
      reason: values.reason,
      reasonEn: values.reasonEn,
    });
  };

  const done = useCallback(
    (result: ClosureResult | null) => {
      setAsked(null);
      if (!result) return;
      dispatch(
        notify({
          title: t('closure.done'),
          description: closureResultText(t, result),
        }),
      );
      void navigate('/');
    },
    [dispatch, navigate, t],
  );
  const nothing = useCallback(() => {
    setAsked(null);
    dispatch(notify({ title: t('closure.nothing'), type: 'info' }));
  }, [dispatch, t]);

  const options = [
    { value: '', label: t('closure.all-rooms') },
    ...(rooms.data?.content.map((room) => ({
      value: room.id,
      label: textIn(room.name, room.nameEn),
    })) ?? []),
  ];

  return (
    <Page title={t('closure.title')}>
      <p>{t('closure.intro')}</p>
      <form className="form" noValidate onSubmit={submit}>
        <RequiredHint />
        {rooms.error ? <ErrorBox error={rooms.error} /> : null}
        <SelectField
          id={idOf('roomId')}
          label={t('closure.room')}
          options={options}
          value={values.roomId}
          onChange={(event) => change('roomId', event.target.value)}
        />
        <InputField
          id={idOf('fromDate')}
          type="date"
          label={t('closure.from')}
          required
          value={values.fromDate}
          error={form.messageOf('fromDate')}
          onChange={(event) => change('fromDate', event.target.value)}
        />
        <InputField
          id={idOf('untilDate')}
          type="date"
          label={t('closure.until')}
          required
          value={values.untilDate}
          error={form.messageOf('untilDate')}
          onChange={(event) => change('untilDate', event.target.value)}
        />
        <InputField
          id={idOf('reason')}
          label={t('closure.reason')}
          hint={t('closure.reason-hint')}
          maxLength={500}
          value={values.reason}
          onChange={(event) => change('reason', event.target.value)}
        />
        <InputField
          id={idOf('reasonEn')}
          label={t('closure.reason-en')}
          hint={t('closure.reason-en-hint')}
          lang="en"
          maxLength={500}
          value={values.reasonEn}
          onChange={(event) => change('reasonEn', event.target.value)}
        />
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={asked !== null}>
            {t('closure.preview')}
          </button>
          <Link className="button button--secondary" to="/">
            {t('form.cancel')}
          </Link>
        </div>
      </form>
      {asked ? (
        <ClosureDialog
          scope={asked.scope}
          defaultReason={asked.reason}
          defaultReasonEn={asked.reasonEn}
          onDone={done}
          onNothing={nothing}
        />
      ) : null}
    </Page>
  );
}
