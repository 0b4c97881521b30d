import { useEffect, useState, type FormEvent } from 'react';
import { shapeBounds } from '@rr/contracts/bounds';
import { RoomServicesInput } from '@rr/contracts/rooms';
import { InputField, RefusalScope } from '../../../components/form-field';
import { MembersRuleFields } from '../../../components/members-rule-fields';
import { ErrorBox } from '../../../components/error-box';
import { useRefusal } from '../../../hooks/use-refusal';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import type { Room } from '../../../api/types';
import { useUpdateRoomServicesMutation } from '../api/admin-rooms-api';
import {
  AFFILIATIONS_FIELD,
  checkServicesForm,
  CONFIRM_FIELD,
  SIGN_IN_FIELD,
  DOMAINS_FIELD,
  SERVICE_FIELDS,
  servicesToFormValues,
  type ServiceField,
} from '../utils/room-services-values';

const idOf = (field: ServiceField) => `room-services-${field}`;
const FORM_FIELDS = [
  ...SERVICE_FIELDS,
  DOMAINS_FIELD,
  CONFIRM_FIELD,
  SIGN_IN_FIELD,
  AFFILIATIONS_FIELD,
] as const;
/** The inputs state the contract's limits (0-1440, 1-1440, 5-1440, 1-168). */
const BOUNDS = shapeBounds(RoomServicesInput);

/**
 * The room's reading-room services (check-in, no-show release, waitlist, reminders, members
 * only, members of the university), each explained in one sentence and off while its field is
 * empty. Saved on their own:
 * the room's form above keeps what was typed into it, and the message that they were saved
 * shows beside the button (announced).
 */
export function RoomServicesForm({
  room,
  onDirtyChange,
}: {
  room: Room;
  /** Told whether the fields differ from what was last saved (unsaved changes). */
  onDirtyChange?: (dirty: boolean) => void;
}) {
  const { t } = useTranslation('admin-rooms');
  const textIn = useTextIn();
  const [values, setValues] = useState(() => servicesToFormValues(room));
  const [saved, setSaved] = useState(values);
  const [status, setStatus] = useState('');
  const form = useValidatedForm(checkServicesForm, FORM_FIELDS, idOf);
  const [save, saving] = useUpdateRoomServicesMutation();
  const refusal = useRefusal(saving.error);
  const dirty = FORM_FIELDS.some((field) => (values[field] ?? '') !== (saved[field] ?? ''));
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);

  const change = (field: ServiceField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    setStatus('');
    form.revalidate(next);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const services = form.validate(values);
    if (!services) return;
    setStatus('');
    try {
      await save({ id: room.id, services }).unwrap();
    } catch {
      return; // shown by the error box
    }
    setSaved(values);
    setStatus(t('services.saved', { name: textIn(room.name, room.nameEn) }));
  };

  return (
    <section className="room-services" aria-labelledby="room-services-heading">
      <h2 id="room-services-heading">{t('services.heading')}</h2>
      <p>{t('services.intro')}</p>
      <RefusalScope refusal={refusal}>
        <form className="form" noValidate onSubmit={submit}>
          <ErrorBox refusal={refusal} />
          {SERVICE_FIELDS.map((field) => (
            <InputField
              key={field}
              id={idOf(field)}
              type="number"
              inputMode="numeric"
              step={1}
              {...BOUNDS[field]}
              label={t(`services.${field}`)}
              hint={t(`services.${field}-hint`)}
              value={values[field]}
              error={form.messageOf(field)}
              required={false}
              onChange={(event) => change(field, event.target.value)}
            />
          ))}
          <InputField
            id={idOf(DOMAINS_FIELD)}
            label={t(`services.${DOMAINS_FIELD}`)}
            hint={t(`services.${DOMAINS_FIELD}-hint`)}
            value={values[DOMAINS_FIELD] ?? ''}
            error={form.messageOf(DOMAINS_FIELD)}
            required={false}
            onChange={(event) => change(DOMAINS_FIELD, event.target.value)}
          />
          <InputField
            id={idOf(CONFIRM_FIELD)}
            type="number"
            inputMode="numeric"
            step={1}
            {...BOUNDS[CONFIRM_FIELD]}
            label={t(`services.${CONFIRM_FIELD}`)}
            hint={t(`services.${CONFIRM_FIELD}-hint`)}
            value={values[CONFIRM_FIELD] ?? ''}
            error={form.messageOf(CONFIRM_FIELD)}
            required={false}
            onChange={(event) => change(CONFIRM_FIELD, event.target.value)}
          />
          <MembersRuleFields
            idOf={idOf}
            signInRequired={values[SIGN_IN_FIELD] === 'true'}
            affiliations={values[AFFILIATIONS_FIELD] ?? ''}
            error={form.messageOf(AFFILIATIONS_FIELD)}
            texts={{
              legend: t('services.members'),
              signIn: t(`services.${SIGN_IN_FIELD}`),
              signInHint: t(`services.${SIGN_IN_FIELD}-hint`),
              list: t(`services.${AFFILIATIONS_FIELD}`),
              listHint: t(`services.${AFFILIATIONS_FIELD}-hint`),
            }}
            onSignInChange={(on) => change(SIGN_IN_FIELD, on ? 'true' : '')}
            onAffiliationsChange={(text) => change(AFFILIATIONS_FIELD, text)}
          />
          <div className="form__actions">
            <button type="submit" className="button button--primary" disabled={saving.isLoading}>
              {t('services.submit')}
            </button>
          </div>
          {/* Always on the page, so that a screen reader announces the message when it comes. */}
          <p className="form__status" role="status">
            {status}
          </p>
        </form>
      </RefusalScope>
    </section>
  );
}
