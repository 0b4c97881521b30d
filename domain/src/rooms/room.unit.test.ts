import { FIRST_SITE_ID } from '@rr/contracts/sites';
import { describe, expect, it } from 'vitest';
import {
  RoomCreated,
  RoomDeleted,
  RoomImageAltChanged,
  RoomImageRemoved,
  RoomImageSet,
  RoomOrderChanged,
  RoomServicesChanged,
  RoomUpdated,
  TicketBooked,
  TicketCancelled,
  TicketHeld,
  TicketReleased,
  TimeSlotCreated,
  type RoomEvent,
} from '@rr/events/catalogue';
import { history, scenario } from '../testing/given-when-then.ts';
import {
  evolveSlot,
  initialSlotState,
  type SlotEvent,
  type SlotState,
} from '../time-slots/time-slot.ts';
import { decideRoomOrder } from './room-order.ts';
import {
  decideRoom,
  evolveRoom,
  initialRoomState,
  type RoomCommandState,
  type RoomDetails,
  type RoomState,
} from './room.ts';

/** The instant every decision here is made at; the other times are minutes from it. */
const NOW = new Date('2026-11-23T09:00:00Z');
const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000).toISOString();
const TODAY = NOW.toISOString().slice(0, 10);

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const roomId = '0b0f6a52-7d6e-4d1c-9f3e-1a2b3c4d5e6f';
const OWNER = 'a'.repeat(32);
/** A branch's room: its events name the site (the first site's name none). */
const BRANCH = '00000000-0000-4000-8000-00000000b1a0';
const details: RoomDetails = {
  roomId,
  siteId: BRANCH,
  name: 'Reading room',
  description: 'Quiet desks',
  capacity: 10,
  openStart: { type: 'DAY', value: 2 },
  openEnd: { type: 'WORKING_DAY', value: 30 },
};
const image = {
  roomId,
  imageId: '1b0f6a52-7d6e-4d1c-9f3e-1a2b3c4d5e6f',
  contentType: 'image/png' as const,
  size: 100,
  alt: 'A fine room',
};

const room = (...events: RoomEvent[]): RoomState =>
  history(evolveRoom, initialRoomState, ...events);
const created = RoomCreated.create(details);
const deleted = RoomDeleted.create({ roomId });

/** A slot of the room today, with its ticket events. */
const slot = (n: number, ...events: SlotEvent[]): SlotState =>
  history(
    evolveSlot,
    initialSlotState,
    TimeSlotCreated.create({
      timeSlotId: id(n),
      roomId,
      date: TODAY,
      startTime: '14:00',
      endTime: '15:00',
      capacity: 5,
    }),
    ...events,
  );
const held = (ticket: number, slotN: number, expiresAt: string) =>
  TicketHeld.create({
    ticketId: id(ticket),
    timeSlotId: id(slotN),
    transactionId: id(900 + ticket),
    expiresAt,
  });
const booked = (ticket: number) => TicketBooked.create({ ticketId: id(ticket), ownerId: OWNER });

const rooms = scenario(decideRoom, { now: NOW });
const state = (r: RoomState, slotsFromToday: SlotState[] = []): RoomCommandState => ({
  room: r,
  slotsFromToday,
});

describe('CreateRoom', () => {
  it('creates a room that does not exist', () => {
    rooms
      .given(state(initialRoomState))
      .when({ type: 'CreateRoom', data: details })
      .then([RoomCreated.create(details)]);
  });

  it('leaves the first site out of the event, as every room before sites has it', () => {
    const { siteId: _branch, ...rest } = details;
    rooms
      .given(state(initialRoomState))
      .when({ type: 'CreateRoom', data: { ...details, siteId: FIRST_SITE_ID } })
      .then([RoomCreated.create(rest)]);
  });

  it('refuses a site that does not exist', () => {
    rooms
      .given({ room: initialRoomState, slotsFromToday: [], siteExists: false })
      .when({ type: 'CreateRoom', data: details })
      .thenRefused('validation__error');
  });

  it('refuses a room that exists, or existed (its id is not reused)', () => {
    for (const r of [room(created), room(created, deleted)])
      rooms
        .given(state(r))
        .when({ type: 'CreateRoom', data: details })
        .thenRefused('room__already_exists');
  });
});

describe('UpdateRoom', () => {
  it('updates at the version the client saw; the event carries no version', () => {
    const given = room(created);
    expect(given.version).toBe(1);
    rooms
      .given(state(given))
      .when({ type: 'UpdateRoom', data: { ...details, name: 'Renamed', expectedVersion: 1 } })
      .then([RoomUpdated.create({ ...details, name: 'Renamed' })]);
  });

  it('refuses an older version: every event of the room counts, the image ones too', () => {
    rooms
      .given(state(room(created)))
      .when({ type: 'UpdateRoom', data: { ...details, expectedVersion: 0 } })
      .thenRefused('concurrency__version_conflict');
    const withImage = room(created, RoomImageSet.create(image));
    expect(withImage.version).toBe(2);
    rooms
      .given(state(withImage))
      .when({ type: 'UpdateRoom', data: { ...details, expectedVersion: 1 } })
      .thenRefused('concurrency__version_conflict');
    rooms
      .given(state(withImage))
      .when({ type: 'UpdateRoom', data: { ...details, expectedVersion: 2 } })
      .then([RoomUpdated.create(details)]);
  });

  it('keeps the name and booking window of the last update (what the cart decides on)', () => {
    const openEnd = { type: 'DAY' as const, value: 7 };
    const updated = room(created, RoomUpdated.create({ ...details, name: 'Renamed', openEnd }));
    expect(updated).toMatchObject({ status: 'active', name: 'Renamed', openEnd, version: 2 });
  });
});

describe('a missing or deleted room', () => {
  it('refuses every command but creation with not_found', () => {
    for (const r of [initialRoomState, room(created, deleted)]) {
      const given = rooms.given(state(r));
      given
        .when({ type: 'UpdateRoom', data: { ...details, expectedVersion: r.version } })
        .thenRefused('not_found');
      given.when({ type: 'DeleteRoom', data: { roomId } }).thenRefused('not_found');
      given.when({ type: 'SetRoomImage', data: image }).thenRefused('not_found');
      given
        .when({ type: 'ChangeRoomImageAlt', data: { roomId, alt: 'Text' } })
        .thenRefused('not_found');
      given.when({ type: 'RemoveRoomImage', data: { roomId } }).thenRefused('not_found');
    }
  });
});

describe('DeleteRoom', () => {
  it('deletes a room without slots', () => {
    rooms
      .given(state(room(created)))
      .when({ type: 'DeleteRoom', data: { roomId } })
      .then([RoomDeleted.create({ roomId })]);
  });

  it('refuses a room whose slots from today have booked tickets or unexpired holds, naming booked and held apart and until when the holds last', () => {
    const slots = [
      // a booking and an unexpired hold: 2
      slot(1, held(1, 1, at(-30)), booked(1), held(2, 1, at(5))),
      // a hold expiring in a minute: 1
      slot(2, held(3, 2, at(1))),
    ];
    rooms
      .given(state(room(created), slots))
      .when({ type: 'DeleteRoom', data: { roomId } })
      .thenRefused('room__has_active_reservations', {
        seats: { booked: 1, held: 2, heldUntil: at(5) },
      });
  });

  it('does not count expired holds (one expiring right now included), released or cancelled tickets', () => {
    const slots = [
      slot(1, held(1, 1, at(-1)), held(2, 1, at(0))),
      slot(
        2,
        held(3, 2, at(10)),
        TicketReleased.create({ ticketId: id(3), reason: 'removed' }),
        held(4, 2, at(10)),
        booked(4),
        TicketCancelled.create({ ticketId: id(4), ownerId: OWNER }),
      ),
    ];
    rooms
      .given(state(room(created), slots))
      .when({ type: 'DeleteRoom', data: { roomId } })
      .then([RoomDeleted.create({ roomId })]);
  });

  it('decides with the context clock: the same hold blocks before it expires, not after', () => {
    const slots = [slot(1, held(1, 1, at(15)))];
    const given = rooms.given(state(room(created), slots));
    given
      .when({ type: 'DeleteRoom', data: { roomId } }, { now: new Date(at(14)) })
      .thenRefused('room__has_active_reservations', {
        seats: { booked: 0, held: 1, heldUntil: at(15) },
      });
    given
      .when({ type: 'DeleteRoom', data: { roomId } }, { now: new Date(at(15)) })
      .then([RoomDeleted.create({ roomId })]);
  });
});

describe('the room image', () => {
  it('sets an image', () => {
    rooms
      .given(state(room(created)))
      .when({ type: 'SetRoomImage', data: image })
      .then([RoomImageSet.create(image)]);
  });

  it('refuses an alt text without an image (validation__error on the image)', () => {
    const refused = rooms
      .given(state(room(created)))
      .when({ type: 'ChangeRoomImageAlt', data: { roomId, alt: 'A fine room' } })
      .thenRefused('validation__error');
    expect(refused.fields).toEqual([
      { field: 'image', rule: 'required', message: 'Value is required' },
    ]);
    // nor after the image was removed
    rooms
      .given(state(room(created, RoomImageSet.create(image), RoomImageRemoved.create({ roomId }))))
      .when({ type: 'ChangeRoomImageAlt', data: { roomId, alt: 'A fine room' } })
      .thenRefused('validation__error');
  });

  it('changes the alt text of an image', () => {
    rooms
      .given(state(room(created, RoomImageSet.create(image))))
      .when({ type: 'ChangeRoomImageAlt', data: { roomId, alt: 'Another text' } })
      .then([RoomImageAltChanged.create({ roomId, alt: 'Another text' })]);
  });

  it('removes an image; removing none is a no-op', () => {
    rooms
      .given(state(room(created, RoomImageSet.create(image))))
      .when({ type: 'RemoveRoomImage', data: { roomId } })
      .then([RoomImageRemoved.create({ roomId })]);
    rooms
      .given(state(room(created)))
      .when({ type: 'RemoveRoomImage', data: { roomId } })
      .then([]);
  });
});

describe('ChangeRoomServices', () => {
  const services = {
    checkInMinutesBefore: 15,
    noShowReleaseMinutes: 20,
    waitlistOfferMinutes: 30,
    reminderHoursBefore: 24,
  };
  const change = { type: 'ChangeRoomServices' as const, data: { roomId, ...services } };

  it('a new room uses none of them', () => {
    expect(room(created).services).toEqual({
      checkInMinutesBefore: null,
      noShowReleaseMinutes: null,
      waitlistOfferMinutes: null,
      reminderHoursBefore: null,
    });
  });

  it('changes them; the room state follows, and an update of the details keeps them', () => {
    const event = RoomServicesChanged.create({ roomId, ...services });
    rooms
      .given(state(room(created)))
      .when(change)
      .then([event]);
    const after = room(created, event, RoomUpdated.create({ ...details, name: 'Renamed' }));
    expect(after.services).toEqual(services);
    expect(after.version).toBe(3);
  });

  it('records nothing when they are the same, and refuses a missing room', () => {
    const event = RoomServicesChanged.create({ roomId, ...services });
    rooms
      .given(state(room(created, event)))
      .when(change)
      .then([]);
    rooms
      .given(state(room(created, deleted)))
      .when(change)
      .thenRefused('not_found');
  });
});

describe('MoveRoom (the manual order)', () => {
  const order = scenario(decideRoomOrder, {});
  const [a, b, c] = [id(1), id(2), id(3)];
  const move = (roomIdToMove: string, index: number) => ({
    type: 'MoveRoom' as const,
    data: { roomId: roomIdToMove, index },
  });

  it('moves a room to a 0-based index; the event names the whole new order', () => {
    const given = order.given({ roomIds: [a, b, c] });
    given.when(move(c, 0)).then([RoomOrderChanged.create({ roomIds: [c, a, b] })]);
    given.when(move(a, 1)).then([RoomOrderChanged.create({ roomIds: [b, a, c] })]);
    given.when(move(b, 1)).then([RoomOrderChanged.create({ roomIds: [a, b, c] })]);
  });

  it('clamps the index to the list', () => {
    const given = order.given({ roomIds: [a, b, c] });
    given.when(move(a, 99)).then([RoomOrderChanged.create({ roomIds: [b, c, a] })]);
    given.when(move(c, -1)).then([RoomOrderChanged.create({ roomIds: [c, a, b] })]);
  });

  it('refuses a room that is not in the order', () => {
    order
      .given({ roomIds: [a] })
      .when(move(b, 0))
      .thenRefused('not_found');
  });
});
