import { describe, expect, it } from 'vitest';
import type { CheckInTicket } from '../api/check-in-api';
import { canUndo, matchesSearch } from './check-in-filter';

const ticket: CheckInTicket = {
  id: '00000000-0000-4000-8000-000000000001',
  status: 'BOOKED',
  bookingNumber: 'R-7K3QX2',
  firstName: 'Erika',
  lastName: 'Musterfrau',
  startTime: '10:00',
  endTime: '12:00',
  checkedInAt: null,
  checkedInBy: null,
  undoUntil: null,
  noShow: false,
};

describe('check-in search', () => {
  it('finds by first or last name and booking number, in any case, word by word', () => {
    expect(matchesSearch(ticket, '')).toBe(true);
    expect(matchesSearch(ticket, 'muster')).toBe(true);
    expect(matchesSearch(ticket, 'ERIKA muster')).toBe(true);
    expect(matchesSearch(ticket, 'r-7k3')).toBe(true);
    expect(matchesSearch(ticket, 'Max')).toBe(false);
  });
  it('offers undo until undoUntil', () => {
    const checked = {
      ...ticket,
      checkedInAt: '2026-11-23T09:00:00.000Z',
      undoUntil: '2026-11-23T09:10:00.000Z',
    };
    expect(canUndo(checked, new Date('2026-11-23T09:09:59Z'))).toBe(true);
    expect(canUndo(checked, new Date('2026-11-23T09:10:00Z'))).toBe(false);
    expect(canUndo(ticket, new Date('2026-11-23T09:00:00Z'))).toBe(false);
  });
});
