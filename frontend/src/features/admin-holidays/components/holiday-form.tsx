import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { InputField, RequiredHint } from '../../../components/form-field';
import { TextAreaField } from '../../../components/text-area-field';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { shapeBounds } from '@rr/contracts/bounds';
import { HolidayInput as HolidayContract } from '@rr/contracts/holidays';
import type { HolidayInput } from '../../../api/types';
import { useTranslation } from '../../../i18n/i18n-context';
import {
  checkHolidayForm,
  HOLIDAY_FIELDS,
  type HolidayField,
  type HolidayFormValues,
} from '../utils/holiday-form';

const idOf = (field: HolidayField) => `holiday-${field}`;
/** The inputs state the contract's limits. */
const BOUNDS = shapeBounds(HolidayContract);

interface HolidayFormProps {
  initialValues: HolidayFormValues;
  submitLabel: string;
  isSubmitting: boolean;
  /** Called with the request body of the validated values (an empty description left out). */
  onSubmit: (holiday: HolidayInput) => void | Promise<void>;
  cancelTo: string;
  /** Shown above the fields, e.g. an error box. */
  children?: ReactNode;
}

/** Create and edit form of a holiday. */
export function HolidayForm({
  initialValues,
  submitLabel,
  isSubmitting,
  onSubmit,
  cancelTo,
  children,
}: HolidayFormProps) {
  const { t } = useTranslation('admin-holidays');
  const [values, setValues] = useState(initialValues);
  const form = useValidatedForm(checkHolidayForm, HOLIDAY_FIELDS, idOf);

  const change = (field: HolidayField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    form.revalidate(next);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const holiday = form.validate(values);
    if (holiday) await onSubmit(holiday);
  };

  const field = (name: HolidayField) => ({
    id: idOf(name),
    value: values[name],
    error: form.messageOf(name),
    onChange: (event: { target: { value: string } }) => change(name, event.target.value),
  });

  return (
    <form className="form" noValidate onSubmit={submit}>
      <RequiredHint />
      {children}
      <InputField
        {...field('name')}
        label={t('form.name')}
        hint={t('form.name-hint')}
        required
        {...BOUNDS.name}
      />
      <InputField
        {...field('nameEn')}
        label={t('form.name-en')}
        hint={t('form.name-en-hint')}
        lang="en"
        {...BOUNDS.nameEn}
      />
      <InputField {...field('date')} type="date" label={t('form.date')} required />
      <TextAreaField
        {...field('description')}
        label={t('form.description')}
        hint={t('form.description-hint')}
        rows={3}
        {...BOUNDS.description}
      />
      <TextAreaField
        {...field('descriptionEn')}
        label={t('form.description-en')}
        hint={t('form.description-en-hint')}
        lang="en"
        rows={3}
        {...BOUNDS.descriptionEn}
      />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={isSubmitting}>
          {submitLabel}
        </button>
        <Link className="button button--secondary" to={cancelTo}>
          {t('form.cancel')}
        </Link>
      </div>
    </form>
  );
}
