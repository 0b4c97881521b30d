import type { ReactNode } from 'react';
import { CheckboxField, InputField, SelectField } from '../../../components/form-field';
import { useTranslation } from '../../../i18n/i18n-context';
import { isSalutation, SALUTATIONS, type OwnerField, type OwnerValues } from '../utils/owner-form';

interface OwnerFieldsProps {
  /** Prefix of the control ids (`<prefix>-firstName`, …). */
  idOf: (field: OwnerField | 'salutation' | 'accessibility') => string;
  values: OwnerValues;
  messageOf: (field: OwnerField) => string | undefined;
  onText: (field: OwnerField, value: string) => void;
  onChange: (change: Partial<OwnerValues>) => void;
  /** Extra hints per field. */
  hints?: Partial<Record<OwnerField, ReactNode>>;
}

const AUTOCOMPLETE: Record<OwnerField, string> = {
  title: 'off',
  firstName: 'off',
  lastName: 'off',
  organisation: 'off',
  email: 'off',
  phone: 'off',
};

/**
 * The owner data of a reservation (docs/product.md#entities): salutation, title, first and last name,
 * organisation, e-mail, phone and whether accessibility is needed. Staff enter another person's
 * data, so the browser's autofill (the staff member's own data) is switched off.
 */
export function OwnerFields({
  idOf,
  values,
  messageOf,
  onText,
  onChange,
  hints,
}: OwnerFieldsProps) {
  const { t } = useTranslation('admin-reservations');
  const text = (field: OwnerField, extra: { required?: boolean; type?: string } = {}) => (
    <InputField
      id={idOf(field)}
      type={extra.type ?? 'text'}
      label={t(`owner.${field}`)}
      required={extra.required}
      hint={hints?.[field]}
      autoComplete={AUTOCOMPLETE[field]}
      value={values[field]}
      error={messageOf(field)}
      onChange={(event) => onText(field, event.target.value)}
    />
  );

  return (
    <fieldset className="fieldset">
      <legend>{t('owner.legend')}</legend>
      <div className="field-row">
        <SelectField
          id={idOf('salutation')}
          label={t('owner.salutation')}
          value={values.salutation}
          options={SALUTATIONS.map((value) => ({ value, label: t(`owner.salutations.${value}`) }))}
          onChange={(event) => {
            const value = event.target.value;
            if (isSalutation(value)) onChange({ salutation: value });
          }}
        />
        {text('title')}
      </div>
      <div className="field-row">
        {text('firstName', { required: true })}
        {text('lastName', { required: true })}
      </div>
      {text('organisation')}
      <div className="field-row">
        {text('email', { type: 'email' })}
        {text('phone', { type: 'tel' })}
      </div>
      <CheckboxField
        id={idOf('accessibility')}
        label={t('owner.accessibility')}
        checked={values.accessibility}
        onChange={(event) => onChange({ accessibility: event.target.checked })}
      />
    </fieldset>
  );
}
