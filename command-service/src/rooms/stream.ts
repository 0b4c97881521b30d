import { ROOM_ORDER_STREAM, type Actor, type StoreSession } from '@rr/events';
import { lockSlots } from '../streams/timeslot.ts';
import {
  decideRoom,
  decideRoomOrder,
  type RoomCommand,
  type RoomCommandState,
  type RoomOrderCommand,
} from '@rr/domain';
import { decisionTime, type CommandDeps } from '../deps.ts';
import { handleCommand } from '../command.ts';
import { roomOrder } from '../write-state.ts';
import { appendToRoom, lockAndLoadRoom } from '../streams/room.ts';
import { appendToRoomOrder } from '../streams/room-order.ts';
export { loadRoom } from '../streams/room.ts';

/**
 * The room streams (`room-<id>`) and the room order stream: their loaders and the commands run
 * on them. Route files parse and answer; what a command locks and reads is decided here.
 */

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
  const room = await lockAndLoadRoom(s, roomId);
  if (command.type !== 'DeleteRoom' || room.status !== 'active')
    return { room, slotsFromToday: [] };
  const r = await s.client.query<{ id: string }>(
    'SELECT time_slot_id AS id FROM timeslot_guard WHERE room_id = $1 AND date >= $2',
    [roomId, today],
  );
  const slots = await lockSlots(
    s,
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
    appends: (events, state) => appendToRoom(roomId, state.room, events),
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
    appends: (events, state) => appendToRoomOrder(state, events),
    answer: () => null,
  });
  return position;
}
