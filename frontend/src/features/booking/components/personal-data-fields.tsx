import { Fragment } from 'react';
import { CheckboxField, InputField, SelectField } from '../../../components/form-field';
import { ErrorBox } from '../../../components/error-box';
import type { Refusal } from '../../../hooks/use-refusal';
import { useTranslation } from '../../../i18n/i18n-context';
import {
  isRequired,
  SALUTATIONS,
  TEXT_FIELDS,
  type PersonalData,
  type Salutation,
  type TextField,
} from '../lib/personal-data';
import { ContactHint } from './contact-hint';

/** The id of a personal data field's control. */
export const personalFieldId = (field: keyof PersonalData) => `personal-${field}`;

/** Autocomplete tokens (WCAG 1.3.5, identify input purpose). */
const AUTOCOMPLETE: Readonly<Record<TextField, string>> = {
  title: 'honorific-prefix',
  firstName: 'given-name',
  lastName: 'family-name',
  organisation: 'organization',
  email: 'email',
  phone: 'tel',
};

/**
 * The fields of the visitor's personal data (docs/product.md#validation), as the booking's form
 * and a walk-in's at the seat show them; the refusal of the address shows below the address.
 */
export function PersonalDataFields({
  values,
  change,
  messageOf,
  refusal,
  refused,
  locked,
}: {
  values: PersonalData;
  change: <K extends keyof PersonalData>(field: K, value: PersonalData[K]) => void;
  messageOf: (field: TextField) => string | undefined;
  refusal: Refusal;
  /** The refusal's error (its contact hint names whom to ask). */
  refused: unknown;
  /** Fields the campus identity supplied: shown, not changed. */
  locked?: Partial<PersonalData> | undefined;
}) {
  const { t } = useTranslation('booking');
  return (
    <>
      <SelectField
        id={personalFieldId('salutation')}
        label={t('data.salutation')}
        value={values.salutation}
        options={SALUTATIONS.map((value) => ({ value, label: t(`data.salutations.${value}`) }))}
        onChange={(event) => change('salutation', event.target.value as Salutation)}
      />
      {TEXT_FIELDS.map((field) => (
        <Fragment key={field}>
          <InputField
            id={personalFieldId(field)}
            name={field}
            label={t(`data.${field}`)}
            type={field === 'email' ? 'email' : field === 'phone' ? 'tel' : 'text'}
            autoComplete={AUTOCOMPLETE[field]}
            required={isRequired(field)}
            hint={field === 'phone' ? t('data.phone-hint') : undefined}
            value={values[field]}
            readOnly={!!locked?.[field]}
            error={messageOf(field)}
            onChange={(event) => change(field, event.target.value)}
          />
          {field === 'email' ? (
            // The refusal of the address, below the address, so that both are in sight.
            <ErrorBox refusal={refusal} extra={<ContactHint error={refused} />} />
          ) : null}
        </Fragment>
      ))}
      <CheckboxField
        id={personalFieldId('accessibility')}
        label={t('data.accessibility')}
        checked={values.accessibility}
        onChange={(event) => change('accessibility', event.target.checked)}
      />
    </>
  );
}
