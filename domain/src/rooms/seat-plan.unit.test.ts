import { describe, expect, it } from 'vitest';
import type { RoomEvent } from '@rr/events/catalogue';
import { Refused } from '../refusal.ts';
import {
  decideSeatPlan,
  evolveSeatPlan,
  NO_SEAT_PLAN,
  seatsInService,
  type SeatPlan,
  type SeatSetting,
} from './seat-plan.ts';

const ROOM = '00000000-0000-4000-8000-000000000001';
const id = (n: number) => `00000000-0000-4000-8000-${String(100 + n).padStart(12, '0')}`;
const seat = (n: number, label: string, more: Partial<SeatSetting> = {}): SeatSetting => ({
  seatId: id(n),
  label,
  attributes: [],
  x: n,
  y: n,
  rotation: 0,
  ...more,
});
const planOf = (events: RoomEvent[], plan: SeatPlan = NO_SEAT_PLAN) =>
  events.reduce(evolveSeatPlan, plan);
const setSeats = (plan: SeatPlan, seats: SeatSetting[]) =>
  decideSeatPlan({ type: 'SetRoomSeats', data: { roomId: ROOM, seats } }, plan);

describe('decideSeatPlan', () => {
  it('gives a new label the setting’s id and keeps a known label’s id, whatever its case', () => {
    const first = planOf(setSeats(NO_SEAT_PLAN, [seat(1, 'A1'), seat(2, 'A2')]));
    expect(first.seats.map((s) => [s.seatId, s.label])).toEqual([
      [id(1), 'A1'],
      [id(2), 'A2'],
    ]);
    const second = planOf(
      setSeats(first, [seat(3, 'B1'), seat(4, ' a2 ', { x: 50 }), seat(5, 'A1')]),
      first,
    );
    expect(second.seats.map((s) => [s.seatId, s.label, s.x])).toEqual([
      [id(3), 'B1', 3],
      [id(2), 'a2', 50],
      [id(1), 'A1', 5],
    ]);
  });

  it('gives a label that left the plan its seat again, however long it was gone, the plan ended too', () => {
    const first = planOf(setSeats(NO_SEAT_PLAN, [seat(1, 'A1'), seat(2, 'A2'), seat(3, 'A3')]));
    const fewer = planOf(setSeats(first, [seat(4, 'A1')]), first);
    expect(fewer.retired).toEqual({ a2: id(2), a3: id(3) });
    const ended = planOf(setSeats(fewer, []), fewer);
    expect(ended.seats).toEqual([]);
    const back = planOf(setSeats(ended, [seat(5, 'a3'), seat(6, 'A2'), seat(7, 'A9')]), ended);
    expect(back.seats.map((s) => [s.seatId, s.label])).toEqual([
      [id(3), 'a3'],
      [id(2), 'A2'],
      [id(7), 'A9'],
    ]);
    expect(back.retired).toEqual({ a1: id(1) });
    // A plan none ever left keeps no list of them.
    expect(first).not.toHaveProperty('retired');
  });

  it('decides nothing when the seats are the same (fresh ids and attribute order aside)', () => {
    const plan = planOf(
      setSeats(NO_SEAT_PLAN, [seat(1, 'A1', { attributes: ['window', 'power'], zone: 'North' })]),
    );
    expect(
      setSeats(plan, [
        seat(9, 'A1', { attributes: ['power', 'window'], zone: 'North', x: 1, y: 1 }),
      ]),
    ).toEqual([]);
    expect(
      setSeats(plan, [seat(9, 'A1', { attributes: ['power'], zone: 'North', x: 1, y: 1 })]),
    ).toHaveLength(1);
    expect(setSeats(NO_SEAT_PLAN, [])).toEqual([]);
  });

  it('takes a seat of the plan out of service and back; an unknown seat or range is refused', () => {
    const plan = planOf(setSeats(NO_SEAT_PLAN, [seat(1, 'A1'), seat(2, 'A2')]));
    const range = { from: '2027-01-04', until: '2027-01-06', reason: 'Broken lamp' };
    const out = planOf(
      decideSeatPlan(
        {
          type: 'TakeSeatOutOfService',
          data: { roomId: ROOM, outOfServiceId: id(50), seatId: id(1), ...range },
        },
        plan,
      ),
      plan,
    );
    expect(seatsInService(out, '2027-01-05').map((s) => s.label)).toEqual(['A2']);
    expect(seatsInService(out, '2027-01-07').map((s) => s.label)).toEqual(['A1', 'A2']);
    expect(() =>
      decideSeatPlan(
        {
          type: 'TakeSeatOutOfService',
          data: { roomId: ROOM, outOfServiceId: id(51), seatId: id(9), ...range },
        },
        plan,
      ),
    ).toThrow(Refused);
    const back = planOf(
      decideSeatPlan(
        { type: 'ReturnSeatToService', data: { roomId: ROOM, outOfServiceId: id(50) } },
        out,
      ),
      out,
    );
    expect(back.outOfService).toEqual([]);
    expect(() =>
      decideSeatPlan(
        { type: 'ReturnSeatToService', data: { roomId: ROOM, outOfServiceId: id(50) } },
        back,
      ),
    ).toThrow(Refused);
  });

  it('sets and removes the plan image; removing none decides nothing', () => {
    const image = { imageId: id(60), contentType: 'image/svg+xml' as const, size: 300, width: 800 };
    const withImage = planOf(
      decideSeatPlan({ type: 'SetSeatPlanImage', data: { roomId: ROOM, ...image } }, NO_SEAT_PLAN),
    );
    expect(withImage.image).toEqual(image);
    const removed = decideSeatPlan(
      { type: 'RemoveSeatPlanImage', data: { roomId: ROOM } },
      withImage,
    );
    expect(planOf(removed, withImage)).toEqual(NO_SEAT_PLAN);
    expect(
      decideSeatPlan({ type: 'RemoveSeatPlanImage', data: { roomId: ROOM } }, NO_SEAT_PLAN),
    ).toEqual([]);
  });
});
