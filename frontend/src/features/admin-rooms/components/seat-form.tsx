import { useState } from 'react';
import { SEAT_ATTRIBUTES, type SeatAttribute } from '@rr/contracts/seats';
import { CheckboxGroupField } from '../../../components/checkbox-group';
import { InputField, SelectField } from '../../../components/form-field';
import { TextAreaField } from '../../../components/text-area-field';
import { useTranslation } from '../../../i18n/i18n-context';
import { fieldMessage } from '../../../lib/field-message';
import { clampPercent, ROTATION_STEP, type DraftSeat } from '../utils/seat-plan-editing';
import type { SeatRefusal } from '../hooks/use-seat-plan-draft';

const ROTATIONS = Array.from({ length: 360 / ROTATION_STEP }, (_, i) => i * ROTATION_STEP);
const idOf = (field: string) => `seat-${field}`;

/**
 * The selected seat's fields beside the plan: label, zone, attributes, notes, and its place and
 * turn in numbers (the keyboard's and the screen reader's way to set them exactly).
 */
export function SeatForm({
  seat,
  refusals,
  onChange,
}: {
  seat: DraftSeat;
  refusals: readonly SeatRefusal[];
  onChange: (how: (seat: DraftSeat) => DraftSeat) => void;
}) {
  const { t } = useTranslation('admin-rooms');
  const errorOf = (field: string) => {
    const refusal = refusals.find((r) => r.field === field);
    return refusal ? fieldMessage(t, refusal.error) : undefined;
  };
  const set = <K extends keyof DraftSeat>(field: K, value: DraftSeat[K]) =>
    onChange((current) => ({ ...current, [field]: value }));
  return (
    <section className="seat-form" aria-labelledby="seat-form-heading">
      <h3 id="seat-form-heading">{t('seats.form-heading', { label: seat.label })}</h3>
      <InputField
        id={idOf('label')}
        label={t('seats.field.label')}
        hint={t('seats.label-hint')}
        required
        maxLength={12}
        value={seat.label}
        error={errorOf('label')}
        onChange={(event) => set('label', event.target.value)}
      />
      <InputField
        id={idOf('zone')}
        label={t('seats.field.zone')}
        hint={t('seats.zone-hint')}
        maxLength={40}
        value={seat.zone}
        error={errorOf('zone')}
        onChange={(event) => set('zone', event.target.value)}
      />
      <CheckboxGroupField<SeatAttribute>
        legend={t('seats.field.attributes')}
        options={SEAT_ATTRIBUTES.map((attribute) => ({
          value: attribute,
          id: idOf(`attribute-${attribute}`),
          label: t(`seats.attribute.${attribute}`),
        }))}
        chosen={seat.attributes}
        onChange={(chosen) => set('attributes', chosen)}
        error={errorOf('attributes')}
        errorId={idOf('attributes-error')}
      />
      <TextAreaField
        id={idOf('notes')}
        label={t('seats.field.notes')}
        hint={t('seats.notes-hint')}
        maxLength={200}
        rows={2}
        value={seat.notes}
        error={errorOf('notes')}
        onChange={(event) => set('notes', event.target.value)}
      />
      <div className="seat-form__place">
        <PercentField
          id={idOf('x')}
          label={t('seats.field.x')}
          value={seat.x}
          error={errorOf('x')}
          onChange={(value) => set('x', value)}
        />
        <PercentField
          id={idOf('y')}
          label={t('seats.field.y')}
          value={seat.y}
          error={errorOf('y')}
          onChange={(value) => set('y', value)}
        />
        <SelectField
          id={idOf('rotation')}
          label={t('seats.field.rotation')}
          value={String(seat.rotation)}
          options={ROTATIONS.map((degrees) => ({
            value: String(degrees),
            label: t('seats.degrees', { count: degrees }),
          }))}
          error={errorOf('rotation')}
          onChange={(event) => set('rotation', Number(event.target.value))}
        />
      </div>
    </section>
  );
}

/**
 * A place in per cent: what is typed stays while it is typed (an empty field, `12.`), each
 * number in it moves the seat at once; leaving the field shows the seat's place again.
 */
function PercentField({
  id,
  label,
  value,
  error,
  onChange,
}: {
  id: string;
  label: string;
  value: number;
  error: string | undefined;
  onChange: (value: number) => void;
}) {
  const [typed, setTyped] = useState<string | null>(null);
  return (
    <InputField
      id={id}
      label={label}
      type="number"
      min={0}
      max={100}
      step={0.1}
      value={typed ?? String(value)}
      error={error}
      onChange={(event) => {
        const text = event.target.value;
        setTyped(text);
        const number = Number(text);
        if (text.trim() !== '' && Number.isFinite(number)) onChange(clampPercent(number));
      }}
      onBlur={() => setTyped(null)}
    />
  );
}
