import type { PoolClient } from '@rr/platform';
import type { RoomState } from '@rr/domain';
import { toRoom, type RoomRow } from './booking/store.ts';

/**
 * Readers of the write side's state tables beside the log (room_state: each existing room and
 * its place in the manual order). The tables are moved by the inline projections
 * (inline-projections.ts) in the transaction of the events; the cart commands' own readers
 * (the rooms and holidays of a booking window) live with their loader, booking/store.ts.
 */

/** The existing rooms among these ids (a deleted or unknown room is absent). */
export async function roomStates(
  client: PoolClient,
  roomIds: readonly string[],
): Promise<Map<string, RoomState>> {
  if (roomIds.length === 0) return new Map();
  const r = await client.query<RoomRow>({
    name: 'rr_room_states',
    text: `SELECT room_id::text AS room_id, version, name, has_image, open_start_type, open_start_value,
                  open_end_type, open_end_value, services
             FROM room_state WHERE room_id = ANY($1::uuid[])`,
    values: [[...new Set(roomIds)]],
  });
  return new Map(r.rows.map((row) => [row.room_id, toRoom(row)]));
}

/** Every existing room's id in the manual order. */
export async function roomOrder(client: PoolClient): Promise<string[]> {
  const r = await client.query<{ id: string }>(
    'SELECT room_id::text AS id FROM room_state ORDER BY sort_order, name, room_id',
  );
  return r.rows.map((row) => row.id);
}
