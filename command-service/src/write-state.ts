import type { RoomServices } from '@rr/events';
import { NO_ROOM_SERVICES, withSiteMembersRule, type MembersRule } from '@rr/contracts';
import { roomHolidayDates, type PoolClient } from '@rr/platform';
import {
  addDays,
  roomOpenBounds,
  type DayType,
  type LocalDate,
  type OwnOpenBounds,
  type RoomHolidays,
  type RoomState,
  type SeatPlan,
} from '@rr/domain';

/**
 * Readers of the write side's state tables beside the log (room_state: each existing room and
 * its place in the manual order). The tables are moved by the inline projections
 * (inline-projections.ts) in the transaction of the events.
 */

export interface RoomRow {
  room_id: string;
  version: number;
  site_id: string;
  name: string;
  name_en: string | null;
  has_image: boolean;
  /** Null: the room sets no such bound (its site's, else the product's default). */
  open_start_type: DayType | null;
  open_start_value: number | null;
  open_end_type: DayType | null;
  open_end_value: number | null;
  services: Partial<RoomServices>;
  seat_plan: SeatPlan;
  /** The room's site's rule for members of the university (site_state); null: none, or not read. */
  site_members?: MembersRule | null;
  /** The room's site's booking window (site_state); null: none; absent: not read. */
  site_window?: OwnOpenBounds | null;
}

/**
 * The room's site's rule for members of the university, as SQL of a room_state row: the seat
 * decision gets each room with its effective rule (membersRuleOf, docs/product.md#sites).
 */
const SITE_MEMBERS = `(SELECT members FROM site_state WHERE site_state.site_id = room_state.site_id) AS site_members`;

/** The room's site's booking window, as SQL of a room_state row (roomOpenBounds applies it). */
const SITE_WINDOW = `(SELECT json_build_object('openStart', open_start, 'openEnd', open_end) FROM site_state
                       WHERE site_state.site_id = room_state.site_id) AS site_window`;

const bound = (type: DayType | null, value: number | null) =>
  type !== null && value !== null ? { type, value } : undefined;

/**
 * The room's bounds: its own as stored, or, read with its site's window (the seat decision's
 * loaders), the ones that apply (roomOpenBounds: its own, its site's, the product's default).
 */
function openBoundsOfRow(r: RoomRow): Pick<RoomState, 'openStart' | 'openEnd'> {
  const own = {
    openStart: bound(r.open_start_type, r.open_start_value),
    openEnd: bound(r.open_end_type, r.open_end_value),
  };
  return r.site_window === undefined ? own : roomOpenBounds(own, r.site_window);
}

export const toRoom = (r: RoomRow): RoomState => ({
  status: 'active',
  version: r.version,
  siteId: r.site_id,
  hasImage: r.has_image,
  name: r.name,
  ...(r.name_en ? { nameEn: r.name_en } : {}),
  ...openBoundsOfRow(r),
  services: r.site_members
    ? withSiteMembersRule({ ...NO_ROOM_SERVICES, ...r.services }, r.site_members)
    : { ...NO_ROOM_SERVICES, ...r.services },
  seatPlan: r.seat_plan,
});

/**
 * What the booking window of these rooms needs, in one round trip: the rooms (with their site's
 * window), and each room's holiday dates from today on (the whole system's and its site's; 800
 * days: beyond any window of 365 working days).
 */
export async function roomsWithHolidays(
  client: PoolClient,
  roomIds: readonly string[],
  today: LocalDate,
): Promise<{ rooms: Map<string, RoomState>; holidays: RoomHolidays }> {
  if (roomIds.length === 0) return { rooms: new Map(), holidays: new Map() };
  const ids = byRoomIds('rr_rooms_with_holidays', roomIds);
  const r = await client.query<RoomRow & { holidays: string[] }>({
    name: ids.name,
    text: `SELECT room_id::text AS room_id, version, site_id::text AS site_id, name, name_en, has_image, open_start_type, open_start_value,
                  open_end_type, open_end_value, services, seat_plan, ${SITE_MEMBERS}, ${SITE_WINDOW},
                  ${roomHolidayDates('holiday_state', 'room_state.site_id', '$2', '$3')} AS holidays
             FROM room_state WHERE ${ids.where}`,
    values: [ids.value, today, addDays(today, 800)],
  });
  return {
    rooms: new Map(r.rows.map((row) => [row.room_id, toRoom(row)])),
    holidays: new Map(r.rows.map((row) => [row.room_id, new Set(row.holidays)])),
  };
}

/**
 * The existing rooms among these ids (a deleted or unknown room is absent), as the seat decision
 * sees them: each with its site's rule for members of the university.
 */
export async function roomStates(
  client: PoolClient,
  roomIds: readonly string[],
): Promise<Map<string, RoomState>> {
  if (roomIds.length === 0) return new Map();
  const ids = byRoomIds('rr_room_states', roomIds);
  const r = await client.query<RoomRow>({
    name: ids.name,
    text: `SELECT room_id::text AS room_id, version, site_id::text AS site_id, name, name_en, has_image, open_start_type, open_start_value,
                  open_end_type, open_end_value, services, seat_plan, ${SITE_MEMBERS}, ${SITE_WINDOW}
             FROM room_state WHERE ${ids.where}`,
    values: [ids.value],
  });
  return new Map(r.rows.map((row) => [row.room_id, toRoom(row)]));
}

/**
 * The existing rooms among these ids as their own events leave them (without their site's rule):
 * what room_state's inline projection folds the next events onto.
 */
export async function storedRoomStates(
  client: PoolClient,
  roomIds: readonly string[],
): Promise<Map<string, RoomState>> {
  if (roomIds.length === 0) return new Map();
  const ids = byRoomIds('rr_stored_room_states', roomIds);
  const r = await client.query<RoomRow>({
    name: ids.name,
    text: `SELECT room_id::text AS room_id, version, site_id::text AS site_id, name, name_en, has_image, open_start_type, open_start_value,
                  open_end_type, open_end_value, services, seat_plan
             FROM room_state WHERE ${ids.where}`,
    values: [ids.value],
  });
  return new Map(r.rows.map((row) => [row.room_id, toRoom(row)]));
}

/**
 * The condition on room_state's id ($1) of a named read of these rooms, and its $1. One room, the
 * usual case, is asked by `room_id = $1`: a connection plans that once and keeps the plan. With
 * `= ANY($1)` PostgreSQL guesses ten ids for the array, so a plan kept for any array looks ten
 * times dearer than one made for the one id given, and it would plan the read on every command.
 */
function byRoomIds(
  name: string,
  roomIds: readonly string[],
): { name: string; where: string; value: string | string[] } {
  const ids = [...new Set(roomIds)];
  return ids.length === 1
    ? { name: `${name}_one`, where: 'room_id = $1::uuid', value: ids[0]! }
    : { name, where: 'room_id = ANY($1::uuid[])', value: ids };
}

/** Every existing room's id in the manual order. */
export async function roomOrder(client: PoolClient): Promise<string[]> {
  const r = await client.query<{ id: string }>(
    'SELECT room_id::text AS id FROM room_state ORDER BY sort_order, name, room_id',
  );
  return r.rows.map((row) => row.id);
}
