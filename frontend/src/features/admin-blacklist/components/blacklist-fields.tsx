import { inputBounds } from '@rr/contracts/bounds';
import { BlacklistDescription } from '@rr/contracts/blacklist';
import { InputField } from '../../../components/form-field';
import { TextAreaField } from '../../../components/text-area-field';
import { useTranslation } from '../../../i18n/i18n-context';
import type { EditField } from '../utils/blacklist';

interface BlacklistFieldsProps {
  idOf: (field: EditField) => string;
  values: Readonly<Record<EditField, string>>;
  errorOf: (field: EditField) => string | undefined;
  onChange: (field: EditField, value: string) => void;
  /** Earliest selectable expiry (tomorrow). */
  minDate: string;
}

/** The expiry and note of an entry, shared by the add and edit forms. */
export function BlacklistFields({
  idOf,
  values,
  errorOf,
  onChange,
  minDate,
}: BlacklistFieldsProps) {
  const { t } = useTranslation('admin-blacklist');
  return (
    <>
      <InputField
        id={idOf('expiredAt')}
        type="date"
        label={t('form.expired-at')}
        hint={t('form.expired-at-hint')}
        required
        min={minDate}
        value={values.expiredAt}
        error={errorOf('expiredAt')}
        onChange={(event) => onChange('expiredAt', event.target.value)}
      />
      <TextAreaField
        id={idOf('description')}
        label={t('form.description')}
        hint={t('form.description-hint')}
        rows={3}
        {...inputBounds(BlacklistDescription)}
        value={values.description}
        error={errorOf('description')}
        onChange={(event) => onChange('description', event.target.value)}
      />
    </>
  );
}
