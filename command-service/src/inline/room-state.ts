import {
  handlersFor,
  roomOrderStream,
  roomStream,
  type NewEvent,
  type RoomEvent,
} from '@rr/events';
import { evolveRoom, initialRoomState } from '@rr/domain';
import { storedRoomStates } from '../write-state.ts';
import { inlineProjection, type InlineFold, type InlineTransaction } from './define.ts';

interface RoomFold extends InlineFold {
  rooms: RoomEvent[];
  /** The last manual order the command wrote, if any. */
  order: string[] | null;
}

const room = (e: RoomEvent, f: RoomFold) => void f.rooms.push(e);

/** `room_state`: each existing room (evolveRoom) and its place in the manual order. */
export const roomStateProjection = inlineProjection({
  table: 'room_state',
  handlers: handlersFor(roomStream, roomOrderStream).with<RoomFold, void, NewEvent>({
    RoomCreated: room,
    RoomUpdated: room,
    RoomDeleted: room,
    RoomImageSet: room,
    RoomImageAltChanged: room,
    RoomImageRemoved: room,
    RoomServicesChanged: room,
    RoomSeatsSet: room,
    SeatTakenOutOfService: room,
    SeatBackInService: room,
    RoomSeatPlanImageSet: room,
    RoomSeatPlanImageRemoved: room,
    RoomOrderChanged: (e, f) => void (f.order = e.data.roomIds),
  }),
  start: (): RoomFold => ({ streamId: '', rooms: [], order: null }),
  async write(tx, f) {
    if (f.rooms.length) await recordRooms(tx, f.rooms);
    if (f.order) await recordRoomOrder(tx, f.order);
  },
});

async function recordRooms(tx: InlineTransaction, events: readonly RoomEvent[]): Promise<void> {
  const ids = [...new Set(events.map((e) => e.data.roomId))];
  const states = await storedRoomStates(tx.client, ids);
  for (const e of events)
    states.set(e.data.roomId, evolveRoom(states.get(e.data.roomId) ?? initialRoomState, e));
  for (const [roomId, room] of states) {
    if (room.status !== 'active') {
      await tx.send('DELETE FROM room_state WHERE room_id = $1', [roomId]);
      // The room's slots go with it: their times are free (the projection drops their read rows).
      await tx.send('DELETE FROM timeslot_guard WHERE room_id = $1', [roomId]);
      continue;
    }
    await tx.send(
      `INSERT INTO room_state (room_id, version, name, name_en, has_image, open_start_type, open_start_value,
                               open_end_type, open_end_value, services, seat_plan, site_id, sort_order)
       VALUES ($1, $2, $3, $10, $4, $5, $6, $7, $8, $9, $11, $12, (SELECT coalesce(max(sort_order) + 1, 0) FROM room_state))
       ON CONFLICT (room_id) DO UPDATE SET version = excluded.version, name = excluded.name, site_id = excluded.site_id,
         name_en = excluded.name_en, has_image = excluded.has_image, open_start_type = excluded.open_start_type,
         open_start_value = excluded.open_start_value, open_end_type = excluded.open_end_type,
         open_end_value = excluded.open_end_value, services = excluded.services,
         seat_plan = excluded.seat_plan`,
      [
        roomId,
        room.version,
        room.name,
        room.hasImage,
        // A bound the room does not set stays null: its site's, else the default, applies.
        room.openStart?.type ?? null,
        room.openStart?.value ?? null,
        room.openEnd?.type ?? null,
        room.openEnd?.value ?? null,
        room.services,
        room.nameEn ?? null,
        room.seatPlan,
        room.siteId,
      ],
    );
  }
}

/** Listed rooms take their index; rooms the event does not name keep their order after them. */
async function recordRoomOrder(tx: InlineTransaction, roomIds: string[]): Promise<void> {
  await tx.send(
    `WITH listed AS (SELECT id, (idx - 1)::int AS pos FROM unnest($1::uuid[]) WITH ORDINALITY AS o(id, idx)),
          others AS (SELECT r.room_id AS id, (cardinality($1::uuid[]) + row_number() OVER (ORDER BY r.sort_order, r.name, r.room_id) - 1)::int AS pos
                       FROM room_state r WHERE r.room_id <> ALL($1::uuid[]))
     UPDATE room_state r SET sort_order = x.pos
       FROM (SELECT * FROM listed UNION ALL SELECT * FROM others) x WHERE r.room_id = x.id`,
    [roomIds],
  );
}
