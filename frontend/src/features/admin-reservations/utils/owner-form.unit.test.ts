import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../../api/types';
import { errorsOf } from '../../../lib/form-check';
import {
  checkOwnerForm,
  checkStaffBookingForm,
  EMPTY_OWNER,
  ownerName,
  ticketToOwnerValues,
  type OwnerValues,
} from './owner-form';
import { backToListPath, editPath, fromList, historyPath, slotEditPath } from './paths';

const ticket: Ticket = {
  id: '11111111-1111-4111-8111-111111111111',
  status: 'BOOKED',
  seat: null,
  siteId: null,
  ownerId: 'a'.repeat(32),
  bookingNumber: 'AB12CD',
  transactionId: '22222222-2222-4222-8222-222222222222',
  timeSlotId: '33333333-3333-4333-8333-333333333333',
  roomId: '44444444-4444-4444-8444-444444444444',
  roomName: 'Großer Lesesaal',
  roomDescription: 'Beschreibung',
  date: '2026-03-10',
  startTime: '08:00',
  endTime: '12:00',
  cancelable: true,
  salutation: 'MS',
  title: 'Dr.',
  firstName: 'Anna',
  lastName: 'Huber',
  organisation: null,
  email: 'anna@example.org',
  phone: '+43123',
  accessibility: true,
  checkIn: false,
  checkedInAt: null,
  noShow: false,
  noShowCount: 0,
};

const ownerErrors = (values: OwnerValues) => errorsOf(checkOwnerForm(values));

describe('owner form', () => {
  it('requires first and last name and checks the lengths, e-mail and phone', () => {
    expect(ownerErrors(EMPTY_OWNER)).toEqual({
      firstName: { key: 'required' },
      lastName: { key: 'required' },
    });
    const errors = ownerErrors({
      ...EMPTY_OWNER,
      title: 't'.repeat(41),
      firstName: 'f'.repeat(41),
      lastName: 'Huber',
      organisation: 'o'.repeat(41),
      email: 'no-address',
      phone: '0664 12a',
    });
    expect(errors).toEqual({
      title: { key: 'max-length', params: { max: 40 } },
      firstName: { key: 'max-length', params: { max: 40 } },
      organisation: { key: 'max-length', params: { max: 40 } },
      email: { key: 'email' },
      phone: { key: 'phone' },
    });
    expect(
      ownerErrors({
        ...EMPTY_OWNER,
        firstName: 'A',
        lastName: 'B',
        email: `${'a'.repeat(316)}@b.at`,
      }),
    ).toEqual({ email: { key: 'max-length', params: { max: 320 } } });
  });

  it('accepts telephone numbers of digits with an optional leading plus, typed with separators', () => {
    const owner = { ...EMPTY_OWNER, firstName: 'A', lastName: 'B' };
    for (const good of ['+43123456', '0664123', '', '+43 123', '0664-123'])
      expect(ownerErrors({ ...owner, phone: good }), good).toEqual({});
    for (const bad of ['12+3', '++43', 'tel', '+43 12a']) {
      expect(ownerErrors({ ...owner, phone: bad }), bad).toEqual({ phone: { key: 'phone' } });
    }
  });

  it('takes the values of a ticket, erased fields as empty', () => {
    expect(ticketToOwnerValues(ticket)).toEqual({
      salutation: 'MS',
      title: 'Dr.',
      firstName: 'Anna',
      lastName: 'Huber',
      organisation: '',
      email: 'anna@example.org',
      phone: '+43123',
      accessibility: true,
    });
    expect(
      ticketToOwnerValues({
        ...ticket,
        salutation: null,
        title: null,
        firstName: null,
        lastName: null,
        email: null,
        phone: null,
        accessibility: null,
      }),
    ).toEqual(EMPTY_OWNER);
  });

  it('trims the payload and leaves out empty optional fields', () => {
    expect(
      checkOwnerForm({
        ...EMPTY_OWNER,
        firstName: ' Anna ',
        lastName: 'Huber ',
        organisation: '  ',
        email: ' anna@example.org ',
      }),
    ).toEqual({
      ok: true,
      data: {
        salutation: 'NONE',
        firstName: 'Anna',
        lastName: 'Huber',
        email: 'anna@example.org',
        accessibility: false,
      },
    });
    expect(
      checkStaffBookingForm({ ...EMPTY_OWNER, firstName: 'A', lastName: 'B', language: 'en' }),
    ).toMatchObject({ ok: true, data: { language: 'en' } });
  });

  it('names the owner "Last, First"', () => {
    expect(ownerName(ticket)).toBe('Huber, Anna');
    expect(ownerName({ firstName: null, lastName: 'Huber' })).toBe('Huber');
    expect(ownerName({ firstName: null, lastName: null })).toBeNull();
  });
});

describe('reservation paths', () => {
  it('links the edit page, its history and the slot', () => {
    expect(editPath('a/b')).toBe('/reservations/a%2Fb');
    // From the list: its search in the address, so a reload keeps the way back.
    expect(editPath('x', '?searchTerm=anna&offset=20')).toBe(
      '/reservations/x?list=searchTerm%3Danna%26offset%3D20',
    );
    expect(editPath('x', '')).toBe('/reservations/x');
    expect(historyPath('x')).toBe('/reservations/x/history');
    expect(slotEditPath('r', 's')).toBe('/room/r/time-slot-edit/s');
  });

  it('goes back to the list the page was opened from', () => {
    expect(backToListPath(fromList('?searchType=cancelled&offset=20'))).toBe(
      '/reservations?searchType=cancelled&offset=20',
    );
    expect(backToListPath(null)).toBe('/reservations');
    expect(backToListPath({ listSearch: 3 })).toBe('/reservations');
    expect(backToListPath(fromList(''))).toBe('/reservations');
    // Without router state: the list as it was last shown.
    expect(backToListPath(null, 'searchTerm=anna&offset=20')).toBe(
      '/reservations?searchTerm=anna&offset=20',
    );
    expect(backToListPath(fromList('?offset=40'), 'searchTerm=anna')).toBe(
      '/reservations?offset=40',
    );
  });
});
