import type { FormEvent, ReactNode } from 'react';
import { shapeBounds } from '@rr/contracts/bounds';
import { SiteInput as SiteContract } from '@rr/contracts/sites';
import type { SiteInput } from '../../../api/types';
import { InputField, RequiredHint, SelectField } from '../../../components/form-field';
import { DAY_TYPES } from '@rr/contracts/rooms';
import { MembersRuleFields } from '../../../components/members-rule-fields';
import { FormActions } from '../../../components/staff-form';
import { TextAreaField } from '../../../components/text-area-field';
import { TranslatedFields } from '../../../components/translated-fields';
import { useFormValues } from '../../../hooks/use-form-values';
import { useTranslation } from '../../../i18n/i18n-context';
import {
  checkSiteForm,
  SITE_FIELDS,
  SITE_LIST_PATH,
  type SiteField,
  type SiteFormValues,
} from '../utils/site-form';

/** The id of a field's control (a refusal of the slug marks `site-slug`). */
export const siteFieldId = (field: SiteField) => `site-${field}`;
const NUMBER = { type: 'number', inputMode: 'numeric', step: 1 } as const;
/** The inputs state the contract's limits. */
const BOUNDS = shapeBounds(SiteContract);

interface SiteFormProps {
  initialValues: SiteFormValues;
  submitLabel: string;
  isSubmitting: boolean;
  /** Called with the request body of the validated values (empty optional texts left out). */
  onSubmit: (site: SiteInput) => void | Promise<void>;
  /** Shown above the fields, e.g. an error box. */
  children?: ReactNode;
}

/** Create and edit form of a site (docs/product.md#sites). */
export function SiteForm({
  initialValues,
  submitLabel,
  isSubmitting,
  onSubmit,
  children,
}: SiteFormProps) {
  const { t } = useTranslation('admin-sites');
  const { field, values, change, validate } = useFormValues(
    checkSiteForm,
    SITE_FIELDS,
    siteFieldId,
    initialValues,
  );

  // A bound left empty: the site sets none (its rooms then use 2 days and 30 working days).
  const dayTypes = [
    { value: '', label: t('form.type-none') },
    ...DAY_TYPES.map((type) => ({ value: type, label: t(`form.type-${type}`) })),
  ];

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const site = validate();
    if (site) await onSubmit(site);
  };

  return (
    <form className="form" noValidate onSubmit={submit}>
      <RequiredHint />
      {children}
      <TranslatedFields
        namespace="admin-sites"
        name="name"
        field={field}
        bounds={BOUNDS}
        required
      />
      <InputField
        {...field('slug')}
        label={t('form.slug')}
        hint={t('form.slug-hint')}
        required
        autoCapitalize="none"
        spellCheck={false}
        {...BOUNDS.slug}
      />
      <InputField
        {...field('contactEmail')}
        type="email"
        autoComplete="off"
        label={t('form.contact-email')}
        hint={t('form.contact-email-hint')}
        required
        {...BOUNDS.contactEmail}
      />
      <TextAreaField
        {...field('address')}
        label={t('form.address')}
        hint={t('form.address-hint')}
        rows={3}
        {...BOUNDS.address}
      />
      <InputField
        {...field('phone')}
        type="tel"
        autoComplete="off"
        label={t('form.phone')}
        hint={t('form.phone-hint')}
        {...BOUNDS.phone}
      />
      <TextAreaField
        {...field('mailSignature')}
        label={t('form.mail-signature')}
        hint={t('form.mail-signature-hint')}
        rows={4}
        {...BOUNDS.mailSignature}
      />
      <MembersRuleFields
        idOf={siteFieldId}
        signInRequired={values.signInRequired === 'true'}
        affiliations={values.allowedAffiliations}
        error={field('allowedAffiliations').error}
        texts={{
          legend: t('form.members'),
          signIn: t('form.sign-in-required'),
          signInHint: t('form.sign-in-required-hint'),
          list: t('form.allowed-affiliations'),
          listHint: t('form.allowed-affiliations-hint'),
        }}
        onSignInChange={(on) => change('signInRequired', on ? 'true' : '')}
        onAffiliationsChange={(text) => change('allowedAffiliations', text)}
      />
      <fieldset className="fieldset">
        <legend>{t('form.window')}</legend>
        <p className="field__hint">{t('form.window-hint')}</p>
        <div className="field-row">
          <InputField
            {...field('openStartValue')}
            {...NUMBER}
            label={t('form.open-start-value')}
            {...BOUNDS.openStartValue}
          />
          <SelectField
            {...field('openStartType')}
            label={t('form.open-start-type')}
            options={dayTypes}
          />
        </div>
        <div className="field-row">
          <InputField
            {...field('openEndValue')}
            {...NUMBER}
            label={t('form.open-end-value')}
            {...BOUNDS.openEndValue}
          />
          <SelectField
            {...field('openEndType')}
            label={t('form.open-end-type')}
            options={dayTypes}
          />
        </div>
      </fieldset>
      <FormActions
        submitLabel={submitLabel}
        busy={isSubmitting}
        cancelTo={SITE_LIST_PATH}
        cancelLabel={t('form.cancel')}
      />
    </form>
  );
}
