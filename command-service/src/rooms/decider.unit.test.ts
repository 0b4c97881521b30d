import { describe, expect, it } from 'vitest';
import type { RoomEvent } from '@rr/events';
import { Problem } from '@rr/platform';
import {
  decide,
  evolve,
  initialRoomState,
  moveRoom,
  type RoomDetails,
  type RoomState,
} from './decider.ts';

const roomId = '0b0f6a52-7d6e-4d1c-9f3e-1a2b3c4d5e6f';
const details: RoomDetails = {
  roomId,
  name: 'Reading room',
  description: 'Quiet desks',
  capacity: 10,
  openStart: { type: 'DAY', value: 2 },
  openEnd: { type: 'WORKING_DAY', value: 30 },
};

const given = (...events: RoomEvent[]): RoomState => events.reduce(evolve, initialRoomState);
const created: RoomEvent = { type: 'RoomCreated', data: details };

function refusal(fn: () => unknown): Problem {
  try {
    fn();
  } catch (err) {
    if (err instanceof Problem) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('room decider', () => {
  it('creates a room once', () => {
    expect(decide({ type: 'CreateRoom', data: details }, initialRoomState)).toEqual([
      { type: 'RoomCreated', data: details },
    ]);
    expect(refusal(() => decide({ type: 'CreateRoom', data: details }, given(created))).error).toBe(
      'room__already_exists',
    );
  });

  it('updates only at the current version', () => {
    const state = given(created);
    expect(state.version).toBe(1);
    const events = decide(
      { type: 'UpdateRoom', data: { ...details, name: 'Renamed', expectedVersion: 1 } },
      state,
    );
    expect(events).toEqual([{ type: 'RoomUpdated', data: { ...details, name: 'Renamed' } }]);
    const stale = refusal(() =>
      decide({ type: 'UpdateRoom', data: { ...details, expectedVersion: 0 } }, state),
    );
    expect(stale.status).toBe(409);
    expect(stale.error).toBe('concurrency__version_conflict');
  });

  it('refuses commands on missing or deleted rooms with 404', () => {
    const deleted = given(created, { type: 'RoomDeleted', data: { roomId } });
    for (const state of [initialRoomState, deleted]) {
      expect(
        refusal(() =>
          decide(
            { type: 'UpdateRoom', data: { ...details, expectedVersion: state.version } },
            state,
          ),
        ).status,
      ).toBe(404);
      expect(
        refusal(() =>
          decide({ type: 'DeleteRoom', data: { roomId, activeReservationCount: 0 } }, state),
        ).status,
      ).toBe(404);
    }
  });

  it('refuses to delete a room with active reservations, naming the count', () => {
    const p = refusal(() =>
      decide({ type: 'DeleteRoom', data: { roomId, activeReservationCount: 3 } }, given(created)),
    );
    expect(p.status).toBe(409);
    expect(p.error).toBe('room__has_active_reservations');
    expect(p.payload).toEqual(['3']);
    expect(
      decide({ type: 'DeleteRoom', data: { roomId, activeReservationCount: 0 } }, given(created)),
    ).toEqual([{ type: 'RoomDeleted', data: { roomId } }]);
  });

  it('tracks the image: alt change needs an image, removal without one is a no-op', () => {
    const noImage = given(created);
    expect(
      refusal(() =>
        decide({ type: 'ChangeRoomImageAlt', data: { roomId, alt: 'A fine room' } }, noImage),
      ).error,
    ).toBe('validation__error');
    expect(decide({ type: 'RemoveRoomImage', data: { roomId } }, noImage)).toEqual([]);
    const image = {
      roomId,
      imageId: '1b0f6a52-7d6e-4d1c-9f3e-1a2b3c4d5e6f',
      contentType: 'image/png' as const,
      size: 100,
      alt: 'A fine room',
    };
    const withImage = given(created, { type: 'RoomImageSet', data: image });
    expect(withImage.hasImage).toBe(true);
    expect(
      decide({ type: 'ChangeRoomImageAlt', data: { roomId, alt: 'Another text' } }, withImage),
    ).toEqual([{ type: 'RoomImageAltChanged', data: { roomId, alt: 'Another text' } }]);
    expect(decide({ type: 'RemoveRoomImage', data: { roomId } }, withImage)).toEqual([
      { type: 'RoomImageRemoved', data: { roomId } },
    ]);
  });
});

describe('moveRoom', () => {
  it('moves a room to a 0-based index, clamped', () => {
    expect(moveRoom(['a', 'b', 'c'], 'c', 0)).toEqual(['c', 'a', 'b']);
    expect(moveRoom(['a', 'b', 'c'], 'a', 1)).toEqual(['b', 'a', 'c']);
    expect(moveRoom(['a', 'b', 'c'], 'a', 99)).toEqual(['b', 'c', 'a']);
  });
  it('refuses an unknown room', () => {
    expect(refusal(() => moveRoom(['a'], 'x', 0)).status).toBe(404);
  });
});
