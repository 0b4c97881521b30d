import { describe, expect, it } from 'vitest';
import { createI18n } from '../../../i18n/i18n';
import { closureCountsText, closureResultText } from './closure-text';

describe('the closure in words', () => {
  it('says each count in its plural form, in German and English', async () => {
    const german = await createI18n({ language: 'de', labelOverride: {}, interface: 'admin' });
    const de = german.getFixedT('de', 'admin-holidays');
    expect(closureCountsText(de, { slots: 1, closed: 0, bookings: 1, waiting: 1 })).toBe(
      'Betroffen: 1 Zeitfenster (1 davon offen), 1 Reservierung, 1 Eintrag auf Wartelisten. Geschlossene Zeitfenster können nicht mehr gebucht werden.',
    );
    expect(closureResultText(de, { closedSlots: 2, cancelledTickets: 3, position: '1_1' })).toBe(
      '2 Zeitfenster geschlossen, 3 Reservierungen storniert.',
    );
    const english = await createI18n({ language: 'en', labelOverride: {}, interface: 'admin' });
    const en = english.getFixedT('en', 'admin-holidays');
    expect(closureCountsText(en, { slots: 2, closed: 1, bookings: 0, waiting: 2 })).toBe(
      'Concerned: 2 time slots (1 of them open), 0 reservations, 2 waitlist entries. Closed time slots can no longer be booked.',
    );
    expect(closureResultText(en, { closedSlots: 1, cancelledTickets: 1, position: '1_1' })).toBe(
      '1 time slot closed, 1 reservation cancelled.',
    );
  });
});
