import { describe, expect, it } from 'vitest';
import { ticketsProjection } from './tickets.ts';
import { ticketsBatchTypes } from './tickets/batch.ts';
import { slotRunTypes, timeSlotsProjection } from './timeslots.ts';

const sorted = (types: Iterable<string>) => [...types].sort();

describe('the in-memory batches', () => {
  it('of the tickets fold exactly the types the projection handles', () => {
    expect(sorted(ticketsBatchTypes)).toEqual(sorted(ticketsProjection.handles));
  });

  it('of the time slots fold every type the projection handles but RoomDeleted', () => {
    expect(sorted([...slotRunTypes, 'RoomDeleted'])).toEqual(sorted(timeSlotsProjection.handles));
  });
});
