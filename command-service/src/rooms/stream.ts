import { ROOM_ORDER_STREAM, roomStreamId, type Actor, type StoreSession } from '@rr/events';
import {
  decideRoom,
  decideRoomOrder,
  evolveRoom,
  initialRoomState,
  type RoomCommand,
  type RoomCommandState,
  type RoomOrderCommand,
  type RoomState,
} from '@rr/domain';
import { decisionTime, type CommandDeps } from '../deps.ts';
import { foldStream, handleCommand, streamAppend } from '../command.ts';
import { roomOrder } from '../write-state.ts';
import { lockCartAndSlots } from '../booking/store.ts';

/**
 * The room streams (`room-<id>`) and the room order stream: their loaders and the commands run
 * on them. Route files parse and answer; what a command locks and reads is decided here.
 */

/** A room's stream, folded (the caller holds its lock when it decides on it). */
export async function loadRoom(s: StoreSession, roomId: string): Promise<RoomState> {
  const { events } = await s.readStream(roomStreamId(roomId));
  return foldStream(events, evolveRoom, initialRoomState);
}

/**
 * The room's stream is locked and folded. A deletion also reads the room's slots from today on
 * (their streams, under lock: the room's stream row is locked first, so no slot can be added
 * meanwhile): held or booked tickets block it.
 */
async function loadRoomCommand(
  s: StoreSession,
  command: RoomCommand,
  today: string,
): Promise<RoomCommandState> {
  const roomId = command.data.roomId;
  await s.lockStream(roomStreamId(roomId));
  const room = await loadRoom(s, roomId);
  if (command.type !== 'DeleteRoom' || room.status !== 'active')
    return { room, slotsFromToday: [] };
  const r = await s.client.query<{ id: string }>(
    'SELECT time_slot_id AS id FROM timeslot_guard WHERE room_id = $1 AND date >= $2',
    [roomId, today],
  );
  const slots = await lockCartAndSlots(
    s,
    null,
    r.rows.map((x) => x.id),
  );
  return { room, slotsFromToday: [...slots.values()] };
}

/** The image's bytes of a SetRoomImage: they live beside the log, in `room_images`. */
export interface RoomImageBytes {
  contentType: string;
  bytes: Buffer;
}

/** Runs a room command; answers the room's id, its version after it and the position. */
export async function runRoomCommand(
  deps: CommandDeps,
  actor: Actor,
  command: RoomCommand,
  image?: RoomImageBytes,
) {
  const roomId = command.data.roomId;
  const { answer, position } = await handleCommand(deps.store, {
    actor,
    load: (s) => loadRoomCommand(s, command, decisionTime(deps).today),
    decide: (state) => decideRoom(command, state, { now: deps.clock.now() }),
    appends: (events, state) =>
      streamAppend(roomStreamId(roomId), 'room', state.room.version, events),
    // The image's bytes beside the log follow the image events appended (the bytes themselves
    // are no event's: they come with the command).
    record: async (s, events) => {
      for (const e of events) {
        if (e.type !== 'RoomImageSet' && e.type !== 'RoomImageRemoved') continue;
        await s.client.query('DELETE FROM room_images WHERE room_id = $1', [roomId]);
        if (e.type === 'RoomImageSet' && image)
          await s.client.query(
            'INSERT INTO room_images (image_id, room_id, content_type, bytes) VALUES ($1, $2, $3, $4)',
            [e.data.imageId, roomId, e.data.contentType, image.bytes],
          );
      }
    },
    answer: (events, state) => state.room.version + events.length,
  });
  return { id: roomId, version: answer, position };
}

/**
 * Moves a room in the manual order. The order stream is locked (reorders queue); the rooms and
 * their order are the write side's room_state, moved with the room events.
 */
export async function runRoomOrderCommand(
  deps: CommandDeps,
  actor: Actor,
  command: RoomOrderCommand,
): Promise<string> {
  const { position } = await handleCommand(deps.store, {
    actor,
    load: async (s) => ({
      version: (await s.lockStream(ROOM_ORDER_STREAM)) ?? 0,
      roomIds: await roomOrder(s.client),
    }),
    decide: (state) => decideRoomOrder(command, state, null),
    appends: (events, state) =>
      streamAppend(ROOM_ORDER_STREAM, 'room-order', state.version, events),
    answer: () => null,
  });
  return position;
}
