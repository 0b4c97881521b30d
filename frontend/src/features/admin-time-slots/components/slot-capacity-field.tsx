import { inputBounds } from '@rr/contracts/bounds';
import { TimeSlotUpdateInput } from '@rr/contracts/timeslots';
import { InputField } from '../../../components/form-field';
import type { TextFieldProps } from '../../../hooks/use-form-values';
import { useTranslation } from '../../../i18n/i18n-context';

/** The input states the contract's limits. */
const CAPACITY_BOUNDS = inputBounds(TimeSlotUpdateInput.shape.capacity);

/** The number of seats of the time slots a form adds or changes. */
export function SlotCapacityField({ required, ...field }: TextFieldProps & { required?: boolean }) {
  const { t } = useTranslation('admin-time-slots');
  return (
    <InputField
      {...field}
      type="number"
      inputMode="numeric"
      step={1}
      {...CAPACITY_BOUNDS}
      label={t('form.capacity')}
      required={required}
    />
  );
}
