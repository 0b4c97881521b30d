import { ROOM_ORDER_STREAM, type Actor, type RoomEvent, type StoreSession } from '@rr/events';
import { appendToSlot, lockSlots } from '../streams/timeslot.ts';
import {
  decideRoom,
  decideRoomOrder,
  evolveSeatPlan,
  labelKey,
  minutesOf,
  seatsLeavingPlan,
  type SlotState,
  type RoomCommand,
  type RoomCommandState,
  type RoomOrderCommand,
  type SeatPlan,
  type SeatPlanCommand,
  siteExists,
} from '@rr/domain';
import { decisionTime, type CommandDeps } from '../deps.ts';
import { handleCommand } from '../command.ts';
import { roomOrder } from '../write-state.ts';
import { appendToRoom, lockAndLoadRoom } from '../streams/room.ts';
import { appendToRoomOrder } from '../streams/room-order.ts';
import { lockAndLoadSites } from '../streams/sites.ts';
import { FIRST_SITE_ID } from '@rr/contracts/sites';
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
  if (command.type === 'CreateRoom' || command.type === 'UpdateRoom') {
    const siteId = command.data.siteId;
    // A room that names no other site than its own, or the first (never deleted), needs no read
    // of the sites.
    if (
      siteId === undefined ||
      siteId === FIRST_SITE_ID ||
      (room.status === 'active' && siteId === room.siteId)
    )
      return { room, slotsFromToday: [] };
    return { room, slotsFromToday: [], siteExists: siteExists(await lockAndLoadSites(s), siteId) };
  }
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

/** The image's bytes of a SetRoomImage or SetSeatPlanImage: they live beside the log, in `room_images`. */
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
  const { answer, position } = await runOnRoom(
    deps,
    actor,
    command,
    (events, state) => state.room.version + events.length,
    image,
  );
  return { id: command.data.roomId, version: answer, position };
}

/** Runs a seat plan command; answers the room's seat plan after it and the position. */
export async function runSeatPlanCommand(
  deps: CommandDeps,
  actor: Actor,
  command: SeatPlanCommand,
  image?: RoomImageBytes,
): Promise<{ plan: SeatPlan; position: string }> {
  const { answer, position } = await runOnRoom(
    deps,
    actor,
    command,
    (events, state) => events.reduce(evolveSeatPlan, state.room.seatPlan),
    image,
  );
  return { plan: answer, position };
}

type SetRoomSeats = Extract<SeatPlanCommand, { type: 'SetRoomSeats' }>;

/**
 * Sets a room's seats (docs/product.md#setting-the-plan) with what it does to the room's slots
 * not yet ended, in one step: when seats leave the plan, those slots' streams are locked after the
 * room's (as every slot command of the room), so no hold takes a leaving seat meanwhile, and
 * their tickets on leaving seats move to seats of the new plan. Answers the plan after it.
 */
export async function runSetRoomSeats(deps: CommandDeps, actor: Actor, command: SetRoomSeats) {
  const roomId = command.data.roomId;
  const { answer, position } = await handleCommand(deps.store, {
    actor,
    load: async (s) => {
      const { today, time } = decisionTime(deps);
      const state = await loadRoomCommand(s, command, today);
      const staying = new Set(command.data.seats.map((x) => labelKey(x.label)));
      const leaving = state.room.seatPlan.seats.some((x) => !staying.has(labelKey(x.label)));
      // A plan ended moves nothing (seatsLeavingPlan): its slots need no lock either.
      if (state.room.status !== 'active' || !leaving || staying.size === 0)
        return { state, slots: new Map<string, SlotState>() };
      const r = await s.client.query<{ id: string }>(
        `SELECT time_slot_id AS id FROM timeslot_guard
          WHERE room_id = $1 AND (date > $2 OR (date = $2 AND end_min > $3))`,
        [roomId, today, minutesOf(time)],
      );
      return {
        state,
        slots: await lockSlots(
          s,
          r.rows.map((x) => x.id),
        ),
      };
    },
    decide: ({ state, slots }) => {
      const now = deps.clock.now();
      const events = decideRoom(command, state, { now });
      const plan = events.reduce(evolveSeatPlan, state.room.seatPlan);
      return { events, plan, moves: seatsLeavingPlan(slots, state.room.seatPlan, plan, now) };
    },
    appends: ({ events, moves }, { state, slots }) => [
      ...appendToRoom(roomId, state.room, events),
      ...[...moves].flatMap(([id, moved]) => appendToSlot(id, slots.get(id)!, moved)),
    ],
    answer: ({ plan }) => plan,
  });
  return { plan: answer, position };
}

/** The one path of a room command: the room locked and folded, decided, appended, recorded. */
async function runOnRoom<Answer>(
  deps: CommandDeps,
  actor: Actor,
  command: RoomCommand,
  answer: (events: RoomEvent[], state: RoomCommandState) => Answer,
  image?: RoomImageBytes,
) {
  const roomId = command.data.roomId;
  return handleCommand(deps.store, {
    actor,
    load: (s) => loadRoomCommand(s, command, decisionTime(deps).today),
    decide: (state) => decideRoom(command, state, { now: deps.clock.now() }),
    appends: (events, state) => appendToRoom(roomId, state.room, events),
    // The image's bytes beside the log follow the image events appended (the bytes themselves
    // are no event's: they come with the command).
    record: (s, events) => recordImages(s, roomId, events, image),
    answer,
  });
}

/**
 * The images' bytes beside the log (`room_images`), one of each kind per room: the room's
 * image ('room') and its seat plan's ('seat-plan'). A set image replaces the room's bytes of its
 * kind, a removed one deletes them.
 */
async function recordImages(
  s: StoreSession,
  roomId: string,
  events: readonly RoomEvent[],
  image: RoomImageBytes | undefined,
): Promise<void> {
  for (const e of events) {
    const kind = IMAGE_KINDS[e.type];
    if (!kind) continue;
    await s.client.query('DELETE FROM room_images WHERE room_id = $1 AND kind = $2', [
      roomId,
      kind,
    ]);
    if ((e.type === 'RoomImageSet' || e.type === 'RoomSeatPlanImageSet') && image)
      await s.client.query(
        'INSERT INTO room_images (image_id, room_id, content_type, bytes, kind) VALUES ($1, $2, $3, $4, $5)',
        [e.data.imageId, roomId, e.data.contentType, image.bytes, kind],
      );
  }
}

const IMAGE_KINDS: Partial<Record<RoomEvent['type'], 'room' | 'seat-plan'>> = {
  RoomImageSet: 'room',
  RoomImageRemoved: 'room',
  RoomSeatPlanImageSet: 'seat-plan',
  RoomSeatPlanImageRemoved: 'seat-plan',
};

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
