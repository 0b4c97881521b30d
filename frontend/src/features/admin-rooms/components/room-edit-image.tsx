import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { Room } from '../../../api/types';
import { useConfig } from '../../../app/config-context';
import { useAppDispatch } from '../../../app/hooks';
import { useRefusal } from '../../../hooks/use-refusal';
import { ImageRemoval } from '../../../components/image-removal';
import { InputField } from '../../../components/form-field';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { FormActions, StaffForm } from '../../../components/staff-form';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { IMAGE_ACCEPT } from '@rr/contracts/files';
import { inputBounds } from '@rr/contracts/bounds';
import { RoomImageAlt, RoomImageAltEn, roomImageInput } from '@rr/contracts/rooms';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { formCheck } from '../../../lib/form-check';
import { resolveApiUrl } from '../../../lib/url';
import { notify } from '../../../stores/notifications-slice';
import {
  useDeleteRoomImageMutation,
  useGetAdminRoomQuery,
  useUpdateRoomImageMutation,
} from '../api/admin-rooms-api';

const FIELDS = ['image', 'alt', 'altEn'] as const;
type Field = (typeof FIELDS)[number];
interface ImageFormValues {
  image: File | null;
  alt: string;
  altEn: string;
}
/** docs/product.md#validation, room image: the file (required for a room without one) and its alt text. */
const CHECKS = {
  required: formCheck(roomImageInput(true), (values: ImageFormValues) => values),
  optional: formCheck(roomImageInput(false), (values: ImageFormValues) => values),
};
const idOf = (field: Field) => `room-image-${field}`;

/** Route `/room-edit-image/:id`: upload or delete a room image, edit its alt text. */
export function RoomEditImage() {
  const { t } = useTranslation('admin-rooms');
  const { id = '' } = useParams();
  const { data, error } = useGetAdminRoomQuery(id);

  return (
    <Page title={t('image.title')}>
      <LoadingContainer
        data={data}
        error={error}
        backLink={{ to: '/rooms', label: t('back-to-list') }}
      >
        {(room) => <RoomImageForm key={room.version} room={room} />}
      </LoadingContainer>
    </Page>
  );
}

/** The room's image as it is now (its text alternative in the page's language), or "none". */
function CurrentImage({ room }: { room: Room }) {
  const { t } = useTranslation('admin-rooms');
  const { baseApiUrl } = useConfig();
  const textIn = useTextIn();
  return room.imageUrl ? (
    <img
      className="room-image__preview"
      src={resolveApiUrl(baseApiUrl, room.imageUrl)}
      alt={textIn(room.imageAlt, room.imageAltEn)}
    />
  ) : (
    <p>{t('image.none')}</p>
  );
}

function RoomImageForm({ room }: { room: Room }) {
  const { t } = useTranslation('admin-rooms');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [file, setFile] = useState<File | null>(null);
  const textIn = useTextIn();
  const name = textIn(room.name, room.nameEn);
  const [alt, setAlt] = useState(room.imageAlt ?? '');
  const [altEn, setAltEn] = useState(room.imageAltEn ?? '');
  const [updateImage, update] = useUpdateRoomImageMutation();
  const [deleteImage, removal] = useDeleteRoomImageMutation();
  const hasImage = room.imageUrl !== null;
  const form = useValidatedForm(hasImage ? CHECKS.optional : CHECKS.required, FIELDS, idOf);
  const refusal = useRefusal(update.error, { image: idOf('image') });
  const editPath = `/room-edit/${encodeURIComponent(room.id)}`;

  const chooseFile = (chosen: File | null) => {
    setFile(chosen);
    form.revalidate({ image: chosen, alt, altEn });
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const valid = form.validate({ image: file, alt, altEn });
    if (!valid) return;
    try {
      await updateImage({ id: room.id, image: file, alt: valid.alt, altEn: valid.altEn }).unwrap();
    } catch {
      return; // shown by the error box
    }
    dispatch(notify({ title: t('image.saved', { name }) }));
    await navigate(editPath);
  };

  const confirmDelete = async (): Promise<boolean> => {
    try {
      await deleteImage(room.id).unwrap();
    } catch {
      return false; // shown in the question
    }
    dispatch(notify({ title: t('image.deleted', { name }) }));
    return true;
  };

  return (
    <>
      <p>
        <Link to={editPath}>{t('image.back', { name })}</Link>
      </p>
      <section className="room-image" aria-labelledby="current-image-heading">
        <h2 id="current-image-heading">{t('image.current')}</h2>
        <CurrentImage room={room} />
        <ImageRemoval
          hasImage={hasImage}
          removal={removal}
          onRemove={confirmDelete}
          texts={{
            remove: t('image.delete'),
            title: t('image.delete-title'),
            question: t('image.delete-question'),
            confirm: t('image.delete-confirm'),
            cancel: t('form.cancel'),
          }}
        />
      </section>
      <section aria-labelledby="upload-heading">
        <h2 id="upload-heading">
          {hasImage ? t('image.replace-heading') : t('image.upload-heading')}
        </h2>
        <StaffForm refusal={refusal} onSubmit={submit}>
          <InputField
            id={idOf('image')}
            type="file"
            accept={IMAGE_ACCEPT}
            label={t('image.file')}
            required={!hasImage}
            hint={hasImage ? t('image.file-hint-existing') : t('image.file-hint')}
            error={form.messageOf('image')}
            onChange={(event) => chooseFile(event.target.files?.[0] ?? null)}
          />
          <InputField
            id={idOf('alt')}
            label={t('image.alt')}
            hint={t('image.alt-hint')}
            required
            {...inputBounds(RoomImageAlt)}
            value={alt}
            error={form.messageOf('alt')}
            onChange={(event) => {
              setAlt(event.target.value);
              form.revalidate({ image: file, alt: event.target.value, altEn });
            }}
          />
          <InputField
            id={idOf('altEn')}
            label={t('image.alt-en')}
            hint={t('image.alt-en-hint')}
            lang="en"
            {...inputBounds(RoomImageAltEn)}
            value={altEn}
            error={form.messageOf('altEn')}
            onChange={(event) => {
              setAltEn(event.target.value);
              form.revalidate({ image: file, alt, altEn: event.target.value });
            }}
          />
          <FormActions
            submitLabel={t('image.save')}
            busy={update.isLoading}
            cancelTo={editPath}
            cancelLabel={t('form.cancel')}
          />
        </StaffForm>
      </section>
    </>
  );
}
