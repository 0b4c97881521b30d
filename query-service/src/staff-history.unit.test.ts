import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HISTORY_WHATS } from '@rr/contracts';
import { START, timeSlotStream, transactionStream, type RecordedEvent } from '@rr/events';
import { historyFacts } from './staff-history.ts';

/** The staff app's labels of the history's words, per language (frontend/src/i18n). */
function labels(language: 'de' | 'en'): Record<string, unknown> {
  const staff = JSON.parse(
    readFileSync(
      new URL(`../../frontend/src/i18n/staff.${language}.json`, import.meta.url),
      'utf8',
    ),
  ) as { 'admin-history': { what: Record<string, unknown> } };
  return staff['admin-history'].what;
}

/** An event of a type as the log hands it over, with the data the history reads. */
function recorded(type: string, data: Record<string, unknown> = {}): RecordedEvent {
  return {
    type,
    data: {
      ticketId: 't-1',
      roomId: 'r-1',
      reason: 'Wasserschaden',
      seat: { id: 'seat-1', label: 'A12' },
      ...data,
    },
    eventId: 'e-1',
    streamId: 's-1',
    streamVersion: 1,
    position: START,
    metadata: {
      correlationId: 'c',
      causationId: null,
      actor: { kind: 'visitor' },
      schemaVersion: 1,
    },
    createdAt: new Date('2027-01-25T09:00:00Z'),
  };
}

describe('the history of a ticket and of a time slot', () => {
  // Every event type of the streams the histories read, from the event catalogue: a new type
  // fails here until the history names it with a word the staff app labels.
  const types = [...timeSlotStream.events, ...transactionStream.events].map((d) => d.type);
  const released = ['removed', 'transaction_removed', 'expired', 'closed'].map((reason) =>
    recorded('TicketReleased', { reason }),
  );
  const events = [...types.map((type) => recorded(type)), ...released];
  const catalogues = { de: labels('de'), en: labels('en') };

  it.each(events.map((e) => [e.type, (e.data as { reason: string }).reason, e] as const))(
    '%s (%s) is said in a word of the history, labelled in German and English',
    (type, _reason, event) => {
      const facts = historyFacts.handle(event);
      expect(facts, type).toBeDefined();
      const what = facts!.what;
      expect(HISTORY_WHATS).toContain(what);
      expect(what).not.toBe(type);
      for (const [language, catalogue] of Object.entries(catalogues)) {
        const label = catalogue[what];
        expect(typeof label === 'string' && label.length > 0, `${language}: ${what}`).toBe(true);
        expect(label, `${language}: ${what}`).not.toContain(type);
      }
    },
  );

  it('covers every event type of the two streams', () => {
    expect(types.length).toBeGreaterThan(30);
    expect([...historyFacts.handles].sort()).toEqual([...types].sort());
  });
});
