import {
  RoomSeatPlanImageRemoved,
  RoomSeatPlanImageSet,
  RoomSeatsSet,
  SeatBackInService,
  SeatTakenOutOfService,
  type PlanSeat,
  type RoomEvent,
} from '@rr/events/catalogue';
import type { SeatAttribute } from '@rr/contracts/seats';
import type { LocalDate } from '../calendar.ts';
import { refuse } from '../refusal.ts';

/**
 * A room's seat plan (docs/product.md#seat-plans): its seats, each with a label unique in the
 * room, and the ranges of days seats are out of service. A room without seats has no plan: its
 * slots give tickets without seats, as a capacity.
 */

export type { PlanSeat };

/** A range of days a seat is out of service, with staff's reason. */
export interface OutOfService {
  outOfServiceId: string;
  seatId: string;
  from: LocalDate;
  until: LocalDate;
  reason: string;
}

/** The plan's image drawn behind its seats (its bytes live beside the log). */
export type SeatPlanImage = Omit<
  Extract<RoomEvent, { type: 'RoomSeatPlanImageSet' }>['data'],
  'roomId'
>;

export interface SeatPlan {
  seats: readonly PlanSeat[];
  outOfService: readonly OutOfService[];
  /** Absent: the seats are drawn on a blank plan. */
  image?: SeatPlanImage | undefined;
  /**
   * The ids of the seats that left the plan, by their labels' keys: a label set again is that
   * seat again, so a ticket that kept it (of a slot past, or of a plan that ended) and a new one
   * never hold one place under two ids. Absent: none left.
   */
  retired?: Readonly<Record<string, string>> | undefined;
}

export const NO_SEAT_PLAN: SeatPlan = { seats: [], outOfService: [] };

/** A seat as staff set it; its id is the command's for a new label, the plan's for a known one. */
export interface SeatSetting {
  seatId: string;
  label: string;
  zone?: string | undefined;
  attributes: readonly SeatAttribute[];
  notes?: string | undefined;
  x: number;
  y: number;
  rotation: number;
}

export type SeatPlanCommand =
  | { type: 'SetRoomSeats'; data: { roomId: string; seats: readonly SeatSetting[] } }
  | {
      type: 'TakeSeatOutOfService';
      data: OutOfService & { roomId: string };
    }
  | { type: 'ReturnSeatToService'; data: { roomId: string; outOfServiceId: string } }
  | { type: 'SetSeatPlanImage'; data: SeatPlanImage & { roomId: string } }
  | { type: 'RemoveSeatPlanImage'; data: { roomId: string } };

/** Labels compare without case and surrounding blanks: `a12` is the seat `A12`. */
export const labelKey = (label: string) => label.trim().toLocaleLowerCase('de');

export function evolveSeatPlan(plan: SeatPlan, event: RoomEvent): SeatPlan {
  switch (event.type) {
    case 'RoomSeatsSet': {
      const { retired: before, ...rest } = plan;
      const { seats } = event.data;
      const onPlan = new Set(seats.map((x) => labelKey(x.label)));
      const left = [
        ...Object.entries(before ?? {}),
        ...plan.seats.map((x) => [labelKey(x.label), x.seatId] as const),
      ].filter(([key]) => !onPlan.has(key));
      return left.length
        ? { ...rest, seats, retired: Object.fromEntries(left) }
        : { ...rest, seats };
    }
    case 'SeatTakenOutOfService': {
      const { roomId: _room, ...range } = event.data;
      return { ...plan, outOfService: [...plan.outOfService, range] };
    }
    case 'SeatBackInService':
      return {
        ...plan,
        outOfService: plan.outOfService.filter(
          (r) => r.outOfServiceId !== event.data.outOfServiceId,
        ),
      };
    case 'RoomSeatPlanImageSet': {
      const { roomId: _room, ...image } = event.data;
      return { ...plan, image };
    }
    case 'RoomSeatPlanImageRemoved': {
      const { image: _image, ...rest } = plan;
      return rest;
    }
    default:
      return plan;
  }
}

const sameSeat = (a: PlanSeat, b: PlanSeat) =>
  a.seatId === b.seatId &&
  a.label === b.label &&
  a.zone === b.zone &&
  a.notes === b.notes &&
  a.x === b.x &&
  a.y === b.y &&
  a.rotation === b.rotation &&
  a.attributes.join(',') === b.attributes.join(',');

/**
 * The plan's seats as staff set them: a known label keeps its seat's id, one that left the plan
 * takes its id again.
 */
export function seatsOf(plan: SeatPlan, settings: readonly SeatSetting[]): PlanSeat[] {
  const known = new Map([
    ...Object.entries(plan.retired ?? {}),
    ...plan.seats.map((s) => [labelKey(s.label), s.seatId] as const),
  ]);
  return settings.map((s) => ({
    seatId: known.get(labelKey(s.label)) ?? s.seatId,
    label: s.label.trim(),
    ...(s.zone ? { zone: s.zone } : {}),
    attributes: [...new Set(s.attributes)].sort(),
    ...(s.notes ? { notes: s.notes } : {}),
    x: s.x,
    y: s.y,
    rotation: s.rotation,
  }));
}

/** The seat plan's decisions; the room must exist (the room's decider checks it). */
export function decideSeatPlan(command: SeatPlanCommand, plan: SeatPlan): RoomEvent[] {
  switch (command.type) {
    case 'SetRoomSeats': {
      const seats = seatsOf(plan, command.data.seats);
      const same =
        seats.length === plan.seats.length && seats.every((s, i) => sameSeat(s, plan.seats[i]!));
      return same ? [] : [RoomSeatsSet.create({ roomId: command.data.roomId, seats })];
    }
    case 'TakeSeatOutOfService':
      if (!plan.seats.some((s) => s.seatId === command.data.seatId)) throw refuse.notFound('Seat');
      return [SeatTakenOutOfService.create(command.data)];
    case 'ReturnSeatToService':
      if (!plan.outOfService.some((r) => r.outOfServiceId === command.data.outOfServiceId))
        throw refuse.notFound('Out-of-service range');
      return [SeatBackInService.create(command.data)];
    case 'SetSeatPlanImage':
      return [RoomSeatPlanImageSet.create(command.data)];
    case 'RemoveSeatPlanImage':
      return plan.image ? [RoomSeatPlanImageRemoved.create(command.data)] : [];
  }
}

/** Whether the room has a seat plan: its tickets then take seats of it. */
export const hasSeatPlan = (plan: SeatPlan) => plan.seats.length > 0;

/** The plan's seats in service on a day (neither out of service then nor removed). */
export function seatsInService(plan: SeatPlan, date: LocalDate): PlanSeat[] {
  const out = new Set(
    plan.outOfService.filter((r) => r.from <= date && date <= r.until).map((r) => r.seatId),
  );
  return plan.seats.filter((s) => !out.has(s.seatId));
}
