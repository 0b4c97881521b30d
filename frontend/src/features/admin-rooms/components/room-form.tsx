import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { InputField, RequiredHint, SelectField } from '../../../components/form-field';
import { TextAreaField } from '../../../components/text-area-field';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { shapeBounds } from '@rr/contracts/bounds';
import { RoomInput } from '@rr/contracts/rooms';
import type { RoomCreate } from '../../../api/types';
import { useTranslation } from '../../../i18n/i18n-context';
import {
  checkRoomForm,
  DAY_TYPES,
  OPTIONAL_ROOM_FIELDS,
  ROOM_FIELDS,
  type RoomField,
  type RoomFormValues,
} from '../utils/room-form-values';

/** The id of a field's control (a refusal of the room's name marks `room-name`). */
export const roomFieldId = (field: RoomField) => `room-${field}`;
const idOf = roomFieldId;
/** The inputs state the contract's limits. */
const BOUNDS = shapeBounds(RoomInput);

interface RoomFormProps {
  initialValues: RoomFormValues;
  submitLabel: string;
  isSubmitting: boolean;
  /** Called with the request body of the validated values. */
  onSubmit: (room: RoomCreate) => void | Promise<void>;
  cancelTo: string;
  /** Shown above the fields, e.g. an error box. */
  children?: ReactNode;
  /** Told whether the fields differ from `initialValues` (unsaved changes). */
  onDirtyChange?: (dirty: boolean) => void;
  /** A message beside the submit button, announced (e.g. that the room was saved). */
  status?: string;
}

/** Create and edit form of a room (docs/product.md#validation rules). */
export function RoomForm({
  initialValues,
  submitLabel,
  isSubmitting,
  onSubmit,
  cancelTo,
  children,
  onDirtyChange,
  status,
}: RoomFormProps) {
  const { t } = useTranslation('admin-rooms');
  const [values, setValues] = useState(initialValues);
  const dirty = ROOM_FIELDS.some((name) => values[name] !== initialValues[name]);
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);
  const form = useValidatedForm(checkRoomForm, ROOM_FIELDS, idOf);
  const dayTypeOptions = DAY_TYPES.map((type) => ({
    value: type,
    label: t(`form.day-type.${type}`),
  }));

  const change = (field: RoomField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    form.revalidate(next);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const room = form.validate(values);
    if (room) await onSubmit(room);
  };

  const field = (name: RoomField) => ({
    id: idOf(name),
    value: values[name],
    error: form.messageOf(name),
    required: !OPTIONAL_ROOM_FIELDS.has(name),
  });

  const numberProps = { type: 'number', inputMode: 'numeric', step: 1 } as const;

  return (
    <form className="form" noValidate onSubmit={submit}>
      <RequiredHint />
      {children}
      <InputField
        {...field('name')}
        label={t('form.name')}
        hint={t('form.name-hint')}
        {...BOUNDS.name}
        onChange={(event) => change('name', event.target.value)}
      />
      <InputField
        {...field('nameEn')}
        label={t('form.name-en')}
        hint={t('form.name-en-hint')}
        lang="en"
        {...BOUNDS.nameEn}
        onChange={(event) => change('nameEn', event.target.value)}
      />
      <TextAreaField
        {...field('description')}
        label={t('form.description')}
        hint={t('form.description-hint')}
        rows={3}
        {...BOUNDS.description}
        onChange={(event) => change('description', event.target.value)}
      />
      <TextAreaField
        {...field('descriptionEn')}
        label={t('form.description-en')}
        hint={t('form.description-en-hint')}
        lang="en"
        rows={3}
        {...BOUNDS.descriptionEn}
        onChange={(event) => change('descriptionEn', event.target.value)}
      />
      <InputField
        {...field('capacity')}
        {...numberProps}
        label={t('form.capacity')}
        {...BOUNDS.capacity}
        onChange={(event) => change('capacity', event.target.value)}
      />
      <fieldset className="fieldset">
        <legend>{t('form.open-start')}</legend>
        <p className="field__hint">{t('form.open-start-hint')}</p>
        <div className="field-row">
          <InputField
            {...field('openStartValue')}
            {...numberProps}
            label={t('form.open-value')}
            {...BOUNDS.openStartValue}
            onChange={(event) => change('openStartValue', event.target.value)}
          />
          <SelectField
            {...field('openStartType')}
            label={t('form.open-type')}
            options={dayTypeOptions}
            onChange={(event) => change('openStartType', event.target.value)}
          />
        </div>
      </fieldset>
      <fieldset className="fieldset">
        <legend>{t('form.open-end')}</legend>
        <p className="field__hint">{t('form.open-end-hint')}</p>
        <div className="field-row">
          <InputField
            {...field('openEndValue')}
            {...numberProps}
            label={t('form.open-value')}
            {...BOUNDS.openEndValue}
            onChange={(event) => change('openEndValue', event.target.value)}
          />
          <SelectField
            {...field('openEndType')}
            label={t('form.open-type')}
            options={dayTypeOptions}
            onChange={(event) => change('openEndType', event.target.value)}
          />
        </div>
      </fieldset>
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={isSubmitting}>
          {submitLabel}
        </button>
        <Link className="button button--secondary" to={cancelTo}>
          {t('form.cancel')}
        </Link>
      </div>
      {status === undefined ? null : (
        <p className="form__status" role="status">
          {status}
        </p>
      )}
    </form>
  );
}
