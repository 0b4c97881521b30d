import type { FormEvent, ReactNode } from 'react';
import { InputField, RequiredHint } from '../../../components/form-field';
import { FormActions } from '../../../components/staff-form';
import { TranslatedFields } from '../../../components/translated-fields';
import { useFormValues } from '../../../hooks/use-form-values';
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
  const { field, validate } = useFormValues(checkHolidayForm, HOLIDAY_FIELDS, idOf, initialValues);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const holiday = validate();
    if (holiday) await onSubmit(holiday);
  };

  return (
    <form className="form" noValidate onSubmit={submit}>
      <RequiredHint />
      {children}
      <TranslatedFields
        namespace="admin-holidays"
        name="name"
        field={field}
        bounds={BOUNDS}
        required
      />
      <InputField {...field('date')} type="date" label={t('form.date')} required />
      <TranslatedFields
        namespace="admin-holidays"
        name="description"
        field={field}
        bounds={BOUNDS}
        rows={3}
      />
      <FormActions
        submitLabel={submitLabel}
        busy={isSubmitting}
        cancelTo={cancelTo}
        cancelLabel={t('form.cancel')}
      />
    </form>
  );
}
