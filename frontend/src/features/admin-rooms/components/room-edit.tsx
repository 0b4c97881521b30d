import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { Room, RoomCreate, StaffRoom } from '../../../api/types';
import { formatClock } from '../../../lib/staff-dates';
import { useConfig } from '../../../app/config-context';
import { useAppDispatch } from '../../../app/hooks';
import { ErrorBox } from '../../../components/error-box';
import { RefusalScope } from '../../../components/form-field';
import { useRefusal } from '../../../hooks/use-refusal';
import { DeleteConfirmation, DeleteZone } from '../../../components/delete-confirmation';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { useLeaveWarning } from '../../../hooks/use-leave-warning';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { hasErrorCode } from '../../../lib/staff-forms';
import { resolveApiUrl } from '../../../lib/url';
import { notify } from '../../../stores/notifications-slice';
import {
  useDeleteRoomMutation,
  useGetAdminRoomQuery,
  useUpdateRoomMutation,
} from '../api/admin-rooms-api';
import { roomToFormValues } from '../utils/room-form-values';
import { RoomForm, roomFieldId } from './room-form';
import { RoomServicesForm } from './room-services-form';
import { seatPlanPath } from './seat-plan-page';

const VERSION_CONFLICT = 'concurrency__version_conflict';

/** Route `/room-edit/:id`: edit a room, see its image, delete it (with a confirmation step). */
export function RoomEdit() {
  const { t } = useTranslation('admin-rooms');
  const { id = '' } = useParams();
  const { data, error, refetch } = useGetAdminRoomQuery(id);

  return (
    <Page title={t('edit.title')}>
      <LoadingContainer
        data={data}
        error={error}
        backLink={{ to: '/rooms', label: t('back-to-list') }}
      >
        {(room) => <RoomEditContent room={room} reload={refetch} />}
      </LoadingContainer>
    </Page>
  );
}

function RoomEditContent({ room, reload }: { room: StaffRoom; reload: () => Promise<unknown> }) {
  const { t } = useTranslation('admin-rooms');
  const textIn = useTextIn();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [mode, setMode] = useState<'form' | 'confirm-delete'>('form');
  const [updateRoom, update] = useUpdateRoomMutation();
  const refusal = useRefusal(update.error, { name: roomFieldId('name') });
  const [deleteRoom, removal] = useDeleteRoomMutation();
  const deleteButton = useRef<HTMLButtonElement>(null);
  const confirmHeading = useRef<HTMLHeadingElement>(null);
  const returnFocus = useRef(false);
  // Each form keeps what was typed into it while the other saves (a save gives the room a new
  // version); the room's form starts afresh only after a conflict or its own save.
  const [formGeneration, setFormGeneration] = useState(0);
  const [roomStatus, setRoomStatus] = useState<string | undefined>(undefined);
  const [roomDirty, setRoomDirty] = useState(false);
  const [servicesDirty, setServicesDirty] = useState(false);
  const onRoomDirty = useCallback((dirty: boolean) => {
    setRoomDirty(dirty);
    if (dirty) setRoomStatus(undefined);
  }, []);
  useLeaveWarning(roomDirty || servicesDirty, t('edit.unsaved'));

  useEffect(() => {
    if (mode === 'confirm-delete') {
      confirmHeading.current?.focus();
    } else if (returnFocus.current) {
      returnFocus.current = false;
      deleteButton.current?.focus();
    }
  }, [mode]);

  const save = async (input: RoomCreate) => {
    const body = { ...input, version: room.version };
    try {
      await updateRoom({ id: room.id, room: body }).unwrap();
    } catch (failure) {
      // Someone else changed the room meanwhile: load the current version; the message stays.
      if (hasErrorCode(failure, VERSION_CONFLICT)) {
        await reload();
        setFormGeneration((n) => n + 1);
      }
      return;
    }
    if (servicesDirty) {
      // The services below are not saved yet: stay, so that they are not lost; the room's form
      // starts again from the room as saved.
      await reload();
      setRoomDirty(false);
      setFormGeneration((n) => n + 1);
      setRoomStatus(t('edit.saved', { name: body.name }));
      return;
    }
    dispatch(notify({ title: t('edit.saved', { name: textIn(body.name, body.nameEn) }) }));
    await navigate('/rooms');
  };

  const confirmDelete = async () => {
    try {
      await deleteRoom(room.id).unwrap();
    } catch {
      return; // shown by the error box
    }
    dispatch(notify({ title: t('edit.deleted', { name: textIn(room.name, room.nameEn) }) }));
    await navigate('/rooms');
  };

  const cancelDelete = () => {
    removal.reset();
    returnFocus.current = true;
    setMode('form');
  };

  if (mode === 'confirm-delete') {
    return (
      <DeleteConfirmation
        id="room-delete-title"
        headingRef={confirmHeading}
        title={t('edit.delete-title')}
        question={t('edit.delete-question', { name: textIn(room.name, room.nameEn) })}
        error={removal.error}
        busy={removal.isLoading}
        confirmLabel={t('edit.delete-confirm')}
        cancelLabel={t('form.cancel')}
        onConfirm={confirmDelete}
        onCancel={cancelDelete}
      />
    );
  }

  return (
    <>
      <RoomImagePreview room={room} />
      <RefusalScope refusal={refusal}>
        <RoomForm
          key={formGeneration}
          initialValues={roomToFormValues(room)}
          submitLabel={t('edit.submit')}
          isSubmitting={update.isLoading}
          onSubmit={save}
          cancelTo="/rooms"
          onDirtyChange={onRoomDirty}
          status={roomStatus}
        >
          <ErrorBox refusal={refusal} />
        </RoomForm>
      </RefusalScope>
      <RoomServicesForm room={room} onDirtyChange={setServicesDirty} />
      <section className="room-seats" aria-labelledby="room-seats-heading">
        <h2 id="room-seats-heading">{t('seats.title')}</h2>
        <p>{t('seats.edit-hint')}</p>
        <p>
          <Link to={seatPlanPath(room.id)}>{t('seats.edit-link')}</Link>
        </p>
      </section>
      <DeleteZone
        headingId="room-delete-heading"
        heading={t('edit.delete-heading')}
        blockedMessage={
          room.heldReservationCount > 0
            ? t('edit.blocked-held', {
                booked: room.bookedReservationCount,
                held: room.heldReservationCount,
                until: formatClock(room.heldUntil ?? ''),
              })
            : room.bookedReservationCount > 0
              ? t('edit.active-reservations', { count: room.bookedReservationCount })
              : null
        }
        deleteLabel={t('edit.delete')}
        buttonRef={deleteButton}
        onDelete={() => setMode('confirm-delete')}
      />
    </>
  );
}

function RoomImagePreview({ room }: { room: Room }) {
  const { t } = useTranslation('admin-rooms');
  const { baseApiUrl } = useConfig();
  const textIn = useTextIn();
  return (
    <section className="room-image" aria-labelledby="room-image-heading">
      <h2 id="room-image-heading">{t('edit.image-heading')}</h2>
      {room.imageUrl ? (
        <img
          className="room-image__preview"
          src={resolveApiUrl(baseApiUrl, room.imageUrl)}
          alt={textIn(room.imageAlt, room.imageAltEn)}
        />
      ) : (
        <p>{t('image.none')}</p>
      )}
      <p>
        <Link to={`/room-edit-image/${encodeURIComponent(room.id)}`}>{t('edit.edit-image')}</Link>
      </p>
    </section>
  );
}
