import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import type { Room } from '../../../api/types';
import { useConfig } from '../../../app/config-context';
import { ImageRemoval } from '../../../components/image-removal';
import { InputField } from '../../../components/form-field';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { FormActions, StaffForm } from '../../../components/staff-form';
import { useRefusal } from '../../../hooks/use-refusal';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { fieldMessage } from '../../../lib/field-message';
import { resolveApiUrl } from '../../../lib/url';
import { useGetAdminRoomQuery } from '../api/admin-rooms-api';
import {
  useDeleteSeatPlanImageMutation,
  useGetStaffSeatPlanQuery,
  useUpdateSeatPlanImageMutation,
  type SeatPlanImage,
} from '../api/seat-plan-api';
import { seatPlanPath } from './seat-plan-page';

/** PNG, JPEG or SVG (the server checks the content itself). */
const PLAN_IMAGE_ACCEPT = 'image/png,image/jpeg,image/svg+xml,.svg';
const FILE_ID = 'seat-plan-image-file';

/** Route `/room-edit/:id/seat-plan-image`: upload, replace or remove a room's plan image. */
export function SeatPlanImagePage() {
  const { t } = useTranslation('admin-rooms');
  const { id = '' } = useParams();
  const room = useGetAdminRoomQuery(id);
  const plan = useGetStaffSeatPlanQuery(id);
  const data = room.data && plan.data ? { room: room.data, image: plan.data.image } : undefined;
  return (
    <Page title={t('seats.image-title')}>
      <LoadingContainer
        data={data}
        error={room.error ?? plan.error}
        backLink={{ to: '/rooms', label: t('back-to-list') }}
      >
        {(loaded) => <SeatPlanImageForm {...loaded} />}
      </LoadingContainer>
    </Page>
  );
}

function SeatPlanImageForm({ room, image }: { room: Room; image: SeatPlanImage }) {
  const { t } = useTranslation('admin-rooms');
  const { baseApiUrl } = useConfig();
  const textIn = useTextIn();
  const name = textIn(room.name, room.nameEn);
  const [file, setFile] = useState<File | null>(null);
  const [missing, setMissing] = useState(false);
  const [status, setStatus] = useState('');
  const [upload, uploading] = useUpdateSeatPlanImageMutation();
  const [remove, removal] = useDeleteSeatPlanImageMutation();
  const refusal = useRefusal(uploading.error, { image: FILE_ID });
  const planPath = seatPlanPath(room.id);
  const hasImage = image !== null;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setMissing(file === null);
    if (!file) return;
    try {
      await upload({ roomId: room.id, image: file }).unwrap();
    } catch {
      return; // shown by the error box
    }
    setStatus(t('seats.image-saved', { name }));
  };

  const confirmDelete = async (): Promise<boolean> => {
    try {
      await remove(room.id).unwrap();
    } catch {
      return false; // shown in the question
    }
    setStatus(t('seats.image-deleted', { name }));
    return true;
  };

  return (
    <>
      <p>
        <Link to={planPath}>{t('seats.back', { name })}</Link>
      </p>
      <p role="status">{status}</p>
      <section className="room-image" aria-labelledby="plan-image-heading">
        <h2 id="plan-image-heading">{t('seats.image-current')}</h2>
        {image ? (
          <img
            className="seat-plan-image__preview"
            src={resolveApiUrl(baseApiUrl, image.url)}
            alt={t('seats.plan-image-alt')}
          />
        ) : (
          <p>{t('seats.image-none')}</p>
        )}
        <ImageRemoval
          hasImage={hasImage}
          removal={removal}
          onRemove={confirmDelete}
          texts={{
            remove: t('seats.image-delete'),
            title: t('seats.image-delete-title'),
            question: t('seats.image-delete-question'),
            confirm: t('seats.image-delete-confirm'),
            cancel: t('form.cancel'),
          }}
        />
      </section>
      <section aria-labelledby="plan-upload-heading">
        <h2 id="plan-upload-heading">
          {hasImage ? t('seats.image-replace-heading') : t('seats.image-upload-heading')}
        </h2>
        <StaffForm refusal={refusal} onSubmit={(event) => void submit(event)}>
          <InputField
            id={FILE_ID}
            type="file"
            accept={PLAN_IMAGE_ACCEPT}
            label={t('seats.image-file')}
            hint={t('seats.image-file-hint')}
            required
            error={missing ? fieldMessage(t, { key: 'image-required' }) : undefined}
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setMissing(false);
            }}
          />
          <FormActions
            submitLabel={t('seats.image-save')}
            busy={uploading.isLoading}
            cancelTo={planPath}
            cancelLabel={t('form.cancel')}
          />
        </StaffForm>
      </section>
    </>
  );
}
