import { inputBounds } from '@rr/contracts/bounds';
import { BlacklistDescription } from '@rr/contracts/blacklist';
import { InputField } from '../../../components/form-field';
import { TextAreaField } from '../../../components/text-area-field';
import type { TextFieldProps } from '../../../hooks/use-form-values';
import { useTranslation } from '../../../i18n/i18n-context';
import type { EditField } from '../utils/blacklist';

interface BlacklistFieldsProps {
  /** The props of a field's control (`useFormValues`). */
  field: (name: EditField) => TextFieldProps;
  /** Earliest selectable expiry (tomorrow). */
  minDate: string;
}

/** The expiry and note of an entry, shared by the add and edit forms. */
export function BlacklistFields({ field, minDate }: BlacklistFieldsProps) {
  const { t } = useTranslation('admin-blacklist');
  return (
    <>
      <InputField
        {...field('expiredAt')}
        type="date"
        label={t('form.expired-at')}
        hint={t('form.expired-at-hint')}
        required
        min={minDate}
      />
      <TextAreaField
        {...field('description')}
        label={t('form.description')}
        hint={t('form.description-hint')}
        rows={3}
        {...inputBounds(BlacklistDescription)}
      />
    </>
  );
}
