import { describe, expect, it } from 'vitest';
import { reminderPushMessage } from './reminder-push.ts';

/** A reminder's notification: the mail's subject and ticket lines, in the booking's language. */
const tickets = [
  {
    roomName: 'Großer Lesesaal',
    date: '2026-12-01',
    startTime: '09:00',
    endTime: '10:00',
    seatLabel: 'A 12',
  },
  { roomName: 'Rara', date: '2026-12-01', startTime: '13:00', endTime: '15:00', seatLabel: null },
];
const url = 'https://library.example/reservation-confirmation/aaaa?lang=de';

describe('a reminder as a notification', () => {
  it('names room, date, time and seat of each ticket in German', () => {
    expect(
      reminderPushMessage({ language: 'de', bookingNumber: 'R-ABCDEF', tickets, url }),
    ).toEqual({
      title: 'Erinnerung an Ihre Buchung R-ABCDEF',
      body: 'Großer Lesesaal, 01.12.2026, 09:00–10:00 Uhr, Platz A 12\nRara, 01.12.2026, 13:00–15:00 Uhr',
      url,
    });
  });

  it('and in English', () => {
    expect(
      reminderPushMessage({ language: 'en', bookingNumber: 'R-ABCDEF', tickets, url }),
    ).toEqual({
      title: 'Reminder of your booking R-ABCDEF',
      body: 'Großer Lesesaal, 01.12.2026, 09:00–10:00, Seat A 12\nRara, 01.12.2026, 13:00–15:00',
      url,
    });
  });
});
