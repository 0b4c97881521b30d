import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { Room } from '../../../api/types';
import { useConfig } from '../../../app/config-context';
import { EmptyState } from '../../../components/empty-state';
import { ErrorBox } from '../../../components/error-box';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { Translated } from '../../../components/translated';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { resolveApiUrl } from '../../../lib/url';
import {
  ADMIN_ROOM_LIST_QUERY,
  useGetAdminRoomsQuery,
  useMoveRoomMutation,
} from '../api/admin-rooms-api';
import { movedIndex } from '../utils/room-form-values';

type Direction = -1 | 1;

/** Route `/rooms`: room list with edit links and a manual sort mode. */
export function RoomList() {
  const { t } = useTranslation('admin-rooms');
  const { data, error } = useGetAdminRoomsQuery(ADMIN_ROOM_LIST_QUERY);

  return (
    <Page title={t('list.title')}>
      <p>
        <Link className="button button--primary" to="/room-add">
          {t('list.add')}
        </Link>
      </p>
      <LoadingContainer
        data={data}
        error={error}
        backLink={{ to: '/', label: t('back-to-dashboard') }}
      >
        {({ content }) =>
          content.length === 0 ? (
            <EmptyState>{t('list.empty')}</EmptyState>
          ) : (
            <Rooms rooms={content} />
          )
        }
      </LoadingContainer>
    </Page>
  );
}

function Rooms({ rooms }: { rooms: Room[] }) {
  const { t } = useTranslation('admin-rooms');
  const textIn = useTextIn();
  const [sorting, setSorting] = useState(false);
  const [moveRoom, move] = useMoveRoomMutation();
  const [announcement, setAnnouncement] = useState('');
  /** Button to focus again once the list shows the new order. */
  const [focusAfterMove, setFocusAfterMove] = useState<{ id: string; direction: Direction } | null>(
    null,
  );
  const sortToggle = useRef<HTMLButtonElement>(null);
  const canSort = rooms.length > 1;

  useEffect(() => {
    if (!focusAfterMove) return;
    const preferred = document.getElementById(
      moveButtonId(focusAfterMove.id, focusAfterMove.direction),
    );
    const other = document.getElementById(
      moveButtonId(focusAfterMove.id, focusAfterMove.direction === -1 ? 1 : -1),
    );
    const target =
      preferred instanceof HTMLButtonElement && !preferred.disabled ? preferred : other;
    target?.focus();
  }, [rooms, focusAfterMove]);

  const moveBy = async (room: Room, index: number, direction: Direction) => {
    const target = movedIndex(index, direction, rooms.length);
    if (target === null) return;
    try {
      await moveRoom({ id: room.id, order: target }).unwrap();
    } catch {
      return; // shown by the error box
    }
    setFocusAfterMove({ id: room.id, direction });
    setAnnouncement(
      t('list.moved', { name: textIn(room.name, room.nameEn), position: target + 1 }),
    );
  };

  const toggleSorting = () => {
    setSorting((current) => !current);
    setFocusAfterMove(null);
    setAnnouncement('');
    move.reset();
  };

  return (
    <>
      {canSort ? (
        <p>
          <button
            type="button"
            ref={sortToggle}
            className="button button--secondary"
            aria-pressed={sorting}
            onClick={toggleSorting}
          >
            {sorting ? t('list.end-sort') : t('list.sort')}
          </button>
        </p>
      ) : null}
      {move.error ? <ErrorBox error={move.error} reveal /> : null}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      <ul className="room-list">
        {rooms.map((room, index) => (
          <li key={room.id} className="room-list__item">
            <RoomThumbnail room={room} />
            <div className="room-list__body">
              <h2 className="room-list__name">
                <Translated german={room.name} english={room.nameEn} />
              </h2>
              <p>
                <Translated german={room.description} english={room.descriptionEn} />
              </p>
              <p className="room-list__meta">{t('list.capacity', { count: room.capacity })}</p>
              {sorting ? (
                <div className="button-row">
                  <button
                    type="button"
                    id={moveButtonId(room.id, -1)}
                    className="button button--secondary"
                    disabled={index === 0 || move.isLoading}
                    onClick={() => moveBy(room, index, -1)}
                  >
                    {t('list.move-up')}
                    <span className="visually-hidden"> {textIn(room.name, room.nameEn)}</span>
                  </button>
                  <button
                    type="button"
                    id={moveButtonId(room.id, 1)}
                    className="button button--secondary"
                    disabled={index === rooms.length - 1 || move.isLoading}
                    onClick={() => moveBy(room, index, 1)}
                  >
                    {t('list.move-down')}
                    <span className="visually-hidden"> {textIn(room.name, room.nameEn)}</span>
                  </button>
                </div>
              ) : (
                <ul className="link-row">
                  <li>
                    <Link to={`/room-edit/${encodeURIComponent(room.id)}`}>
                      {t('list.edit')}
                      <span className="visually-hidden"> {textIn(room.name, room.nameEn)}</span>
                    </Link>
                  </li>
                  <li>
                    <Link to={`/room-edit-image/${encodeURIComponent(room.id)}`}>
                      {t('list.edit-image')}
                      <span className="visually-hidden"> {textIn(room.name, room.nameEn)}</span>
                    </Link>
                  </li>
                  <li>
                    <Link to={`/room/${encodeURIComponent(room.id)}/time-slots`}>
                      {t('list.time-slots')}
                      <span className="visually-hidden"> {textIn(room.name, room.nameEn)}</span>
                    </Link>
                  </li>
                </ul>
              )}
            </div>
          </li>
        ))}
      </ul>
      {sorting ? (
        <p>
          <button
            type="button"
            className="button button--primary"
            onClick={() => {
              toggleSorting();
              sortToggle.current?.focus();
            }}
          >
            {t('list.end-sort')}
          </button>
        </p>
      ) : null}
    </>
  );
}

function moveButtonId(roomId: string, direction: Direction): string {
  return `move-${direction === -1 ? 'up' : 'down'}-${roomId}`;
}

function RoomThumbnail({ room }: { room: Room }) {
  const { t } = useTranslation('admin-rooms');
  const { baseApiUrl } = useConfig();
  const textIn = useTextIn();
  return room.imageUrl ? (
    <img
      className="room-list__thumbnail"
      src={resolveApiUrl(baseApiUrl, room.imageUrl)}
      alt={textIn(room.imageAlt, room.imageAltEn)}
      loading="lazy"
    />
  ) : (
    <div className="room-list__thumbnail room-list__thumbnail--empty">{t('list.no-image')}</div>
  );
}
