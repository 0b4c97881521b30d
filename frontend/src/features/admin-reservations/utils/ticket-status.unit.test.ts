import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../../api/types';
import { ticketStatus } from './ticket-status';

const ticket = (change: Partial<Ticket>): Ticket => ({
  id: '00000000-0000-4000-8000-000000000001',
  status: 'BOOKED',
  seat: null,
  siteId: null,
  ownerId: 'a'.repeat(32),
  bookingNumber: 'R-7K3QX2',
  transactionId: '00000000-0000-4000-8000-000000000002',
  timeSlotId: '00000000-0000-4000-8000-000000000003',
  roomId: '00000000-0000-4000-8000-000000000004',
  roomName: 'Lesesaal',
  roomDescription: '',
  date: '2026-12-03',
  startTime: '10:00',
  endTime: '12:00',
  cancelable: true,
  salutation: 'MS',
  title: null,
  firstName: 'Erika',
  lastName: 'Leserin',
  organisation: null,
  email: 'erika@example.at',
  phone: null,
  accessibility: false,
  checkIn: false,
  checkedInAt: null,
  noShow: false,
  noShowCount: 0,
  confirmBy: null,
  unconfirmed: false,
  cancellation: null,
  ...change,
});

describe('a ticket’s status in the reservations list', () => {
  it('says booked, or awaiting confirmation until when', () => {
    expect(ticketStatus(ticket({}))).toEqual({ key: 'booked' });
    expect(ticketStatus(ticket({ confirmBy: '2026-12-01T10:00:00.000Z' }))).toEqual({
      key: 'awaiting',
      confirmBy: '2026-12-01T10:00:00.000Z',
    });
  });

  it('says why a ticket is no longer booked', () => {
    const cancelled = (by: 'visitor' | 'library' | 'closure' | 'moved', reason: string | null) =>
      ticket({ status: 'CANCELLED', cancellation: { by, reason, movedTo: null } });
    expect(ticketStatus(cancelled('visitor', null))).toEqual({ key: 'by-visitor' });
    expect(ticketStatus(cancelled('library', 'Doppelt'))).toEqual({
      key: 'by-library',
      reason: 'Doppelt',
    });
    expect(ticketStatus(cancelled('closure', 'Wasserschaden'))).toEqual({
      key: 'by-closure',
      reason: 'Wasserschaden',
    });
    const movedTo = {
      timeSlotId: '00000000-0000-4000-8000-000000000001',
      date: '2026-12-04',
      startTime: '13:00',
      endTime: '14:00',
    };
    expect(
      ticketStatus(
        ticket({ status: 'CANCELLED', cancellation: { by: 'moved', reason: null, movedTo } }),
      ),
    ).toEqual({ key: 'moved', movedTo });
    // Cancelled before the reason was kept.
    expect(ticketStatus(ticket({ status: 'CANCELLED' }))).toEqual({ key: 'cancelled' });
    expect(ticketStatus(ticket({ status: 'INVALID', noShow: true }))).toEqual({ key: 'no-show' });
    expect(ticketStatus(ticket({ status: 'INVALID', unconfirmed: true }))).toEqual({
      key: 'unconfirmed',
    });
    expect(ticketStatus(ticket({ status: 'INVALID' }))).toEqual({ key: 'released' });
    expect(ticketStatus(ticket({ status: 'NEW' }))).toEqual({ key: 'held' });
  });
});
