import { describe, expect, it } from 'vitest';
import type { CheckInLookupTicket, CheckInTicket } from '../api/check-in-api';
import { canUndo, explainCode, matchesSearch } from './check-in-filter';

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
  seat: null,
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

describe('explaining a code that could not be checked in', () => {
  const base: CheckInLookupTicket = {
    id: '00000000-0000-4000-8000-000000000002',
    status: 'BOOKED',
    bookingNumber: 'R-7K3QX2',
    firstName: 'Erika',
    lastName: 'Musterfrau',
    date: '2026-11-23',
    startTime: '10:00',
    endTime: '12:00',
    roomId: '00000000-0000-4000-8000-000000000003',
    roomName: 'Lesesaal',
    checkInOffered: true,
    checkedInAt: null,
    checkedInBy: null,
    noShow: false,
    seat: null,
  };
  const clock = (instant: string) => `clock(${instant})`;

  it('names the day, time and room of a booking of another day', () => {
    expect(explainCode([{ ...base, date: '2026-11-25' }], '2026-11-23', clock)).toEqual({
      key: 'explain.other-day',
      params: { date: '25.11.2026', time: '10:00-12:00', room: 'Lesesaal' },
    });
  });

  it("names the room in the page's language", () => {
    const english = { ...base, date: '2026-11-25', roomNameEn: 'Reading room' };
    const inEnglish = (x: typeof base) => x.roomNameEn ?? x.roomName;
    expect(explainCode([english], '2026-11-23', clock, inEnglish)?.params).toMatchObject({
      room: 'Reading room',
    });
    const today = {
      ...english,
      date: '2026-11-23',
      status: 'BOOKED' as const,
      checkInOffered: false,
    };
    expect(explainCode([today], '2026-11-23', clock, inEnglish)).toEqual({
      key: 'explain.no-check-in',
      params: { room: 'Reading room' },
    });
  });

  it('says when and by whom a ticket of today was checked in', () => {
    const checkedIn = { ...base, checkedInAt: '2026-11-23T09:05:00Z', checkedInBy: 'desk' };
    expect(explainCode([checkedIn], '2026-11-23', clock)).toEqual({
      key: 'explain.checked-in',
      params: { name: 'Erika Musterfrau', time: 'clock(2026-11-23T09:05:00Z)', by: 'desk' },
    });
  });

  it('says cancelled, released, or a room without check-in; nothing for a ticket to come', () => {
    const today = '2026-11-23';
    expect(explainCode([{ ...base, status: 'CANCELLED' }], today, clock)?.key).toBe(
      'explain.cancelled',
    );
    expect(explainCode([{ ...base, status: 'INVALID', noShow: true }], today, clock)?.key).toBe(
      'explain.released',
    );
    expect(explainCode([{ ...base, checkInOffered: false }], today, clock)).toEqual({
      key: 'explain.no-check-in',
      params: { room: 'Lesesaal' },
    });
    expect(explainCode([base], today, clock)).toBeNull();
    expect(explainCode([], today, clock)).toBeNull();
  });
});
