import { describe, expect, it } from 'vitest';
import { HolidayCreated, HolidayDeleted, holidaysStream } from './holidays.ts';
import { handlersFor, ignore } from './handlers.ts';
import { catalogue, streams, validateEvent } from './index.ts';
import type { NewEvent } from '../types.ts';

const holidayId = '00000000-0000-4000-8000-000000000001';

describe('handlersFor', () => {
  const seen: string[] = [];
  const handlers = handlersFor(holidaysStream).with<string[], number, NewEvent>({
    HolidayCreated: (e, log) => log.push(`created ${e.data.name}`),
    HolidayUpdated: ignore,
    HolidayDeleted: (e, log) => log.push(`deleted ${e.data.holidayId}`),
  });

  it('handles the types it has a handler for, and only those', () => {
    expect([...handlers.handles].sort()).toEqual(['HolidayCreated', 'HolidayDeleted']);
  });

  it('runs the handler of the event type with the context, and nothing for an ignored type', () => {
    const created = HolidayCreated.create({ holidayId, name: 'New Year', date: '2027-01-01' });
    expect(handlers.handle(created, seen)).toBe(1);
    expect(
      handlers.handle(
        { type: 'HolidayUpdated', data: { holidayId, name: 'x', date: '2027-01-01' } },
        seen,
      ),
    ).toBeUndefined();
    expect(handlers.handle(HolidayDeleted.create({ holidayId }), seen)).toBe(2);
    expect(handlers.handle({ type: 'RoomDeleted', data: {} }, seen)).toBeUndefined();
    expect(seen).toEqual(['created New Year', `deleted ${holidayId}`]);
  });
});

describe('the streams', () => {
  it('name every event type of the catalogue once', () => {
    const types = streams.flatMap((s) => s.events.map((d) => d.type));
    expect(new Set(types).size).toBe(types.length);
    expect(catalogue.map((d) => d.type)).toEqual(types);
  });

  it('validate events of their types', () => {
    expect(() => validateEvent({ type: 'NoSuchEvent', data: {} })).toThrow(/Unknown event type/);
    expect(validateEvent(HolidayDeleted.create({ holidayId })).schemaVersion).toBe(1);
  });
});
