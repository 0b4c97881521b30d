import { describe, expect, it } from 'vitest';
import { Upcasters } from './upcasting.ts';

// A made-up history of one event type:
//   v1 { title }                  -> v2 { name }               (field renamed)
//   v2 { name }                   -> v3 { name, capacity: 0 }  (field added with a default)
const v1ToV2 = (data: unknown) => {
  const { title, ...rest } = data as { title: string };
  return { ...rest, name: title };
};
const v2ToV3 = (data: unknown) => ({ ...(data as object), capacity: 0 });

function chain(): Upcasters {
  return new Upcasters().register('RoomCreated', 1, v1ToV2).register('RoomCreated', 2, v2ToV3);
}

describe('Upcasters', () => {
  it('chains upcasters from the stored version up to the newest one (v1 -> v2 -> v3)', () => {
    const up = chain().upcast('RoomCreated', 1, { roomId: 'r1', title: 'Lesesaal' });
    expect(up).toEqual({ data: { roomId: 'r1', name: 'Lesesaal', capacity: 0 }, version: 3 });
  });

  it('starts the chain at the stored version (v2 only runs v2 -> v3)', () => {
    const up = chain().upcast('RoomCreated', 2, { roomId: 'r1', name: 'Lesesaal' });
    expect(up).toEqual({ data: { roomId: 'r1', name: 'Lesesaal', capacity: 0 }, version: 3 });
  });

  it('leaves an event that is already at the newest version as it is', () => {
    const data = { roomId: 'r1', name: 'Lesesaal', capacity: 12 };
    const up = chain().upcast('RoomCreated', 3, data);
    expect(up.version).toBe(3);
    expect(up.data).toBe(data);
  });

  it('leaves types without upcasters untouched (same object, same version)', () => {
    const data = { roomId: 'r1', title: 'not a RoomCreated' };
    const up = chain().upcast('RoomUpdated', 1, data);
    expect(up.version).toBe(1);
    expect(up.data).toBe(data);
  });

  it('keeps the chains of different types apart', () => {
    const ups = chain().register('RoomDeleted', 1, (d) => ({ ...(d as object), reason: 'n/a' }));
    expect(ups.upcast('RoomDeleted', 1, { roomId: 'r1' })).toEqual({
      data: { roomId: 'r1', reason: 'n/a' },
      version: 2,
    });
    // RoomCreated's chain is unaffected by the RoomDeleted registration.
    expect(ups.upcast('RoomCreated', 1, { title: 't' })).toEqual({
      data: { name: 't', capacity: 0 },
      version: 3,
    });
  });

  it('runs each step in order, exactly once', () => {
    const calls: string[] = [];
    const ups = new Upcasters()
      .register('X', 2, (d) => {
        calls.push('2->3');
        return [...(d as string[]), 'v3'];
      })
      .register('X', 1, (d) => {
        calls.push('1->2');
        return [...(d as string[]), 'v2'];
      });
    expect(ups.upcast('X', 1, ['v1'])).toEqual({ data: ['v1', 'v2', 'v3'], version: 3 });
    expect(calls).toEqual(['1->2', '2->3']);
  });

  it('stops where the chain has a gap', () => {
    const ups = new Upcasters()
      .register('X', 1, (d) => ({ ...(d as object), two: true }))
      .register('X', 3, (d) => ({ ...(d as object), four: true }));
    expect(ups.upcast('X', 1, {})).toEqual({ data: { two: true }, version: 2 });
  });
});
