import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../../app/hooks';
import { ErrorBox } from '../../../components/error-box';
import { RefusalScope } from '../../../components/form-field';
import { useRefusal } from '../../../hooks/use-refusal';
import { Page } from '../../../components/page';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { notify } from '../../../stores/notifications-slice';
import { useCreateRoomMutation } from '../api/admin-rooms-api';
import type { RoomCreate } from '../../../api/types';
import { ROOM_FORM_DEFAULTS } from '../utils/room-form-values';
import { RoomForm, roomFieldId } from './room-form';

/** Route `/room-add`. */
export function RoomAdd() {
  const { t } = useTranslation('admin-rooms');
  const textIn = useTextIn();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [createRoom, { isLoading, error }] = useCreateRoomMutation();
  const refusal = useRefusal(error, { name: roomFieldId('name') });

  const submit = async (room: RoomCreate) => {
    try {
      await createRoom(room).unwrap();
    } catch {
      return; // shown by the error box
    }
    dispatch(notify({ title: t('add.created', { name: textIn(room.name, room.nameEn) }) }));
    await navigate('/rooms');
  };

  return (
    <Page title={t('add.title')}>
      <RefusalScope refusal={refusal}>
        <RoomForm
          initialValues={ROOM_FORM_DEFAULTS}
          submitLabel={t('add.submit')}
          isSubmitting={isLoading}
          onSubmit={submit}
          cancelTo="/rooms"
        >
          <ErrorBox refusal={refusal} />
        </RoomForm>
      </RefusalScope>
    </Page>
  );
}
