import { useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import type { FieldErrors } from '@rr/contracts/issues';
import { MAX_HOURS_NOTE } from '@rr/contracts/sites';
import type { Site } from '../../../api/types';
import { useAppDispatch } from '../../../app/hooks';
import { errorId, FieldError, InputField } from '../../../components/form-field';
import { StaffForm } from '../../../components/staff-form';
import { useRefusal } from '../../../hooks/use-refusal';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { fieldMessage } from '../../../lib/field-message';
import { notify } from '../../../stores/notifications-slice';
import { useSetSiteHoursMutation } from '../api/admin-sites-api';
import {
  checkHours,
  HOURS_DAYS,
  hoursFieldId,
  hoursRequest,
  hoursToFormValues,
  MAX_HOURS_EXCEPTIONS,
  MAX_HOURS_RANGES,
  type ExceptionValues,
  type HoursFormValues,
  type RangeValues,
} from '../utils/site-hours-form';

/** The message of a field's (or a group's) failed rule by its path, if it failed one. */
type MessageOf = (path: string) => string | undefined;

/** A group (a day, an exception) whose ranges broke a rule of them all: focusable, described. */
const groupProps = (messageOf: MessageOf, path: string) =>
  messageOf(path)
    ? { tabIndex: -1, 'data-invalid': '', 'aria-describedby': errorId(hoursFieldId(path)) }
    : {};

/**
 * A site's opening hours (docs/product.md#sites): a row of ranges for each weekday (add, remove;
 * none: closed) and the dates with other hours, checked by the server's rules before they are
 * sent, all saved at once.
 */
export function SiteHoursForm({ site }: { site: Site }) {
  const { t } = useTranslation('admin-sites');
  const common = useTranslation().t;
  const textIn = useTextIn();
  const dispatch = useAppDispatch();
  const [values, setValues] = useState<HoursFormValues>(() => hoursToFormValues(site.hours));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [setHours, { isLoading, error }] = useSetSiteHoursMutation();
  const refusal = useRefusal(error);

  const messageOf: MessageOf = (path) => {
    const failed = errors[path];
    return failed ? fieldMessage(common, failed) : undefined;
  };
  const change = (next: HoursFormValues) => {
    setValues(next);
    // An error shown goes once its field is corrected.
    if (Object.keys(errors).length > 0) {
      const found = checkHours(next);
      setErrors(
        Object.fromEntries(Object.keys(errors).flatMap((k) => (found[k] ? [[k, found[k]]] : []))),
      );
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const found = checkHours(values);
    flushSync(() => setErrors(found));
    if (Object.keys(found).length > 0) {
      form.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid]')?.focus();
      return;
    }
    try {
      await setHours({ id: site.id, hours: hoursRequest(values) }).unwrap();
    } catch {
      return; // shown by the error box
    }
    dispatch(notify({ title: t('hours.saved', { name: textIn(site.name, site.nameEn) }) }));
  };

  return (
    <section className="site-hours" aria-labelledby="site-hours-heading">
      <h2 id="site-hours-heading">{t('hours.title')}</h2>
      <p>{t('hours.intro')}</p>
      <StaffForm refusal={refusal} onSubmit={submit}>
        {HOURS_DAYS.map((day) => {
          const label = t(`hours.day-${day}`);
          const path = `weekly.${day}`;
          return (
            <fieldset key={day} className="site-hours__day" {...groupProps(messageOf, path)}>
              <legend>{label}</legend>
              <RangeRows
                path={path}
                label={label}
                ranges={values.weekly[day]}
                messageOf={messageOf}
                onChange={(ranges) =>
                  change({ ...values, weekly: { ...values.weekly, [day]: ranges } })
                }
              />
            </fieldset>
          );
        })}
        <Exceptions
          exceptions={values.exceptions}
          messageOf={messageOf}
          onChange={(exceptions) => change({ ...values, exceptions })}
        />
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={isLoading}>
            {t('hours.submit')}
          </button>
        </div>
      </StaffForm>
    </section>
  );
}

/** The ranges of a day (or of an exception) at `path`, each with its removal, and an addition. */
function RangeRows({
  path,
  label,
  ranges,
  messageOf,
  onChange,
}: {
  path: string;
  label: string;
  ranges: RangeValues[];
  messageOf: MessageOf;
  onChange: (ranges: RangeValues[]) => void;
}) {
  const { t } = useTranslation('admin-sites');
  const set = (i: number, next: Partial<RangeValues>) =>
    onChange(ranges.map((r, j) => (j === i ? { ...r, ...next } : r)));
  return (
    <>
      {ranges.length === 0 ? <p className="site-hours__closed">{t('hours.closed')}</p> : null}
      {ranges.map((range, i) => (
        <div key={i} className="site-hours__range">
          <InputField
            id={hoursFieldId(`${path}.${i}.start`)}
            type="time"
            label={t('hours.from', { day: label, n: i + 1 })}
            required
            value={range.start}
            error={messageOf(`${path}.${i}.start`)}
            onChange={(e) => set(i, { start: e.target.value })}
          />
          <InputField
            id={hoursFieldId(`${path}.${i}.end`)}
            type="time"
            label={t('hours.until', { day: label, n: i + 1 })}
            required
            value={range.end}
            error={messageOf(`${path}.${i}.end`)}
            onChange={(e) => set(i, { end: e.target.value })}
          />
          <button
            type="button"
            className="button button--secondary"
            onClick={() => onChange(ranges.filter((_, j) => j !== i))}
          >
            {t('hours.remove-range')}
            <span className="visually-hidden">
              {' '}
              {t('hours.range-of', { day: label, n: i + 1 })}
            </span>
          </button>
        </div>
      ))}
      <FieldError id={hoursFieldId(path)} label={label} error={messageOf(path)} />
      {ranges.length < MAX_HOURS_RANGES ? (
        <button
          type="button"
          className="button button--secondary"
          onClick={() => onChange([...ranges, { start: '', end: '' }])}
        >
          {t('hours.add-range')}
          <span className="visually-hidden"> {label}</span>
        </button>
      ) : null}
    </>
  );
}

/** The dates with other hours: each its date, ranges (none: closed) and note; add, remove. */
function Exceptions({
  exceptions,
  messageOf,
  onChange,
}: {
  exceptions: ExceptionValues[];
  messageOf: MessageOf;
  onChange: (exceptions: ExceptionValues[]) => void;
}) {
  const { t } = useTranslation('admin-sites');
  return (
    <fieldset className="site-hours__exceptions" {...groupProps(messageOf, 'exceptions')}>
      <legend>{t('hours.exceptions')}</legend>
      <p className="field__hint">{t('hours.exceptions-hint')}</p>
      {exceptions.map((exception, i) => {
        const path = `exceptions.${i}`;
        const title = t('hours.exception-n', { n: i + 1 });
        const set = (next: Partial<ExceptionValues>) =>
          onChange(exceptions.map((e, j) => (j === i ? { ...e, ...next } : e)));
        return (
          <fieldset
            key={i}
            className="site-hours__exception"
            {...groupProps(messageOf, `${path}.ranges`)}
          >
            <legend>{title}</legend>
            <InputField
              id={hoursFieldId(`${path}.date`)}
              type="date"
              label={t('hours.date')}
              required
              value={exception.date}
              error={messageOf(`${path}.date`)}
              onChange={(e) => set({ date: e.target.value })}
            />
            <RangeRows
              path={`${path}.ranges`}
              label={exception.date || title}
              ranges={exception.ranges}
              messageOf={messageOf}
              onChange={(ranges) => set({ ranges })}
            />
            <InputField
              id={hoursFieldId(`${path}.note`)}
              label={t('hours.note')}
              hint={t('hours.note-hint')}
              maxLength={MAX_HOURS_NOTE}
              value={exception.note}
              error={messageOf(`${path}.note`)}
              onChange={(e) => set({ note: e.target.value })}
            />
            <InputField
              id={hoursFieldId(`${path}.noteEn`)}
              label={t('hours.note-en')}
              lang="en"
              maxLength={MAX_HOURS_NOTE}
              value={exception.noteEn}
              error={messageOf(`${path}.noteEn`)}
              onChange={(e) => set({ noteEn: e.target.value })}
            />
            <button
              type="button"
              className="button button--secondary"
              onClick={() => onChange(exceptions.filter((_, j) => j !== i))}
            >
              {t('hours.remove-exception')}
              <span className="visually-hidden"> {title}</span>
            </button>
          </fieldset>
        );
      })}
      <FieldError
        id={hoursFieldId('exceptions')}
        label={t('hours.exceptions')}
        error={messageOf('exceptions')}
      />
      {exceptions.length < MAX_HOURS_EXCEPTIONS ? (
        <button
          type="button"
          className="button button--secondary"
          onClick={() => onChange([...exceptions, { date: '', ranges: [], note: '', noteEn: '' }])}
        >
          {t('hours.add-exception')}
        </button>
      ) : null}
    </fieldset>
  );
}
