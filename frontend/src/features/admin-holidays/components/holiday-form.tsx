import { useEffect, type FormEvent, type ReactNode } from 'react';
import { InputField, RequiredHint, SelectField } from '../../../components/form-field';
import { FormActions } from '../../../components/staff-form';
import { TranslatedFields } from '../../../components/translated-fields';
import { useFormValues, type TextFieldProps } from '../../../hooks/use-form-values';
import { shapeBounds } from '@rr/contracts/bounds';
import { HolidayInput as HolidayContract } from '@rr/contracts/holidays';
import type { HolidayInput } from '../../../api/types';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { useGetHolidaySitesQuery } from '../api/admin-holidays-api';
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
  /** An admin of all sites (she may choose every site); else one of her sites. */
  allSites: boolean;
}

/** Create and edit form of a holiday. */
export function HolidayForm({
  initialValues,
  submitLabel,
  isSubmitting,
  onSubmit,
  cancelTo,
  children,
  allSites,
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
      <SiteChoice field={field('siteId')} allSites={allSites} />
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

/**
 * The site of the holiday (docs/product.md#sites), offered once there is more than one site:
 * "all sites" (the whole system's, for an admin of all sites) or one site, whose rooms only it
 * applies to. An admin of some sites chooses among hers (the API answers hers only); left alone,
 * her first site.
 */
function SiteChoice({ field, allSites }: { field: TextFieldProps; allSites: boolean }) {
  const { t } = useTranslation('admin-holidays');
  const textIn = useTextIn();
  const { data } = useGetHolidaySitesQuery();
  const sites = data?.content ?? [];
  const fallback = allSites ? '' : (sites[0]?.id ?? '');
  const { value, onChange } = field;
  useEffect(() => {
    // A holiday of every site is not hers to make: her first site, unless she chose one.
    if (!value && fallback) onChange({ target: { value: fallback } });
  }, [value, fallback, onChange]);
  // One site: nothing to choose for an admin of all sites (her own site stays shown to a branch admin).
  if (sites.length < 2 && allSites) return null;
  const options = sites.map((site) => ({ value: site.id, label: textIn(site.name, site.nameEn) }));
  return (
    <SelectField
      {...field}
      value={value || fallback}
      label={t('form.site')}
      hint={t('form.site-hint')}
      options={allSites ? [{ value: '', label: t('form.all-sites') }, ...options] : options}
      // Until her sites are known there is nothing to choose (and no site to send).
      disabled={!data}
      aria-busy={!data}
    />
  );
}
