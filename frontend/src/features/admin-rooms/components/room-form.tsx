import { useEffect, type FormEvent, type ReactNode } from 'react';
import { InputField, RequiredHint, SelectField } from '../../../components/form-field';
import { FormActions } from '../../../components/staff-form';
import { TranslatedFields } from '../../../components/translated-fields';
import { useFormValues, type TextFieldProps } from '../../../hooks/use-form-values';
import { shapeBounds } from '@rr/contracts/bounds';
import { RoomInput } from '@rr/contracts/rooms';
import { FIRST_SITE_ID } from '@rr/contracts/sites';
import type { RoomCreate } from '../../../api/types';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { useGetRoomSitesQuery } from '../api/room-sites-api';
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
  const edited = useFormValues(checkRoomForm, ROOM_FIELDS, idOf, initialValues);
  const { values } = edited;
  const dirty = ROOM_FIELDS.some((name) => values[name] !== initialValues[name]);
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);
  // Empty: the room sets no such bound; its site's, else the default, applies. With one site
  // that choice is offered only to a room without a bound of its own (as the API may make it):
  // the form looks as it did before sites.
  const severalSites = (useGetRoomSitesQuery().data?.content.length ?? 0) > 1;
  const dayTypeOptions = (value: string) => [
    ...(severalSites || value === '' ? [{ value: '', label: t('form.day-type.site') }] : []),
    ...DAY_TYPES.map((type) => ({ value: type, label: t(`form.day-type.${type}`) })),
  ];

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const room = edited.validate();
    if (room) await onSubmit(room);
  };

  const field = (name: RoomField) => ({
    ...edited.field(name),
    required: !OPTIONAL_ROOM_FIELDS.has(name),
  });

  const numberProps = { type: 'number', inputMode: 'numeric', step: 1 } as const;

  return (
    <form className="form" noValidate onSubmit={submit}>
      <RequiredHint />
      {children}
      <TranslatedFields
        namespace="admin-rooms"
        name="name"
        field={field}
        bounds={BOUNDS}
        required
      />
      <TranslatedFields
        namespace="admin-rooms"
        name="description"
        field={field}
        bounds={BOUNDS}
        required
        rows={3}
      />
      <InputField
        {...field('capacity')}
        {...numberProps}
        label={t('form.capacity')}
        {...BOUNDS.capacity}
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
          />
          <SelectField
            {...field('openStartType')}
            label={t('form.open-type')}
            options={dayTypeOptions(values.openStartType)}
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
          />
          <SelectField
            {...field('openEndType')}
            label={t('form.open-type')}
            options={dayTypeOptions(values.openEndType)}
          />
        </div>
      </fieldset>
      <SiteChoice field={field('siteId')} />
      <FormActions
        submitLabel={submitLabel}
        busy={isSubmitting}
        cancelTo={cancelTo}
        cancelLabel={t('form.cancel')}
      />
      {status === undefined ? null : (
        <p className="form__status" role="status">
          {status}
        </p>
      )}
    </form>
  );
}

/**
 * The site the room belongs to (docs/product.md#sites), offered only when the library has more
 * than one: left alone, a new room joins the first site and a changed one stays where it is.
 * The sites offered are those the user reaches (the API answers hers only, docs/product.md#roles):
 * a user whose roles are for other sites than the first picks among hers, the first of them
 * chosen for a new room.
 */
function SiteChoice({ field }: { field: TextFieldProps }) {
  const { t } = useTranslation('admin-rooms');
  const textIn = useTextIn();
  const { data } = useGetRoomSitesQuery();
  const sites = data?.content ?? [];
  const firstOffered = sites.some((site) => site.id === FIRST_SITE_ID);
  const fallback = firstOffered ? FIRST_SITE_ID : (sites[0]?.id ?? '');
  const { value, onChange } = field;
  useEffect(() => {
    // A room left without a site would join the first site, which is not hers.
    if (!value && !firstOffered && fallback) onChange({ target: { value: fallback } });
  }, [value, firstOffered, fallback, onChange]);
  if (sites.length < 2 && firstOffered) return null;
  if (sites.length === 0) return null;
  return (
    <SelectField
      {...field}
      value={field.value || fallback}
      label={t('form.site')}
      hint={t('form.site-hint')}
      options={sites.map((site) => ({ value: site.id, label: textIn(site.name, site.nameEn) }))}
    />
  );
}
