import fc from 'fast-check';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { calendarText, writeCalendar } from './calendar-file.ts';

/** Texts of every kind, control characters and iCalendar's own syntax among them. */
const piece = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)) }),
  fc.constantFrom(
    '\r\n',
    '\r',
    '\n',
    '\u2028',
    'END:VEVENT',
    'BEGIN:VEVENT',
    'END:VCALENDAR',
    'X-INJECTED:yes',
    ';',
    ',',
    '\\',
    '\\n',
    ':',
  ),
);
const text = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));

/** How a text reads back from the feed: line breaks as LF, other control characters gone. */
const asRead = (value: string) => calendarText(value).replace(/\r\n?/g, '\n');
/** A text value as RFC 5545 escapes it, read back (ical.js reads X- properties raw). */
const unescaped = (raw: string) =>
  raw.replace(/\\([nN\\;,])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));

describe('a calendar file', () => {
  it('stays one calendar of its events, with every text read back as given', () => {
    fc.assert(
      fc.property(text, fc.array(fc.tuple(text, text), { maxLength: 3 }), (name, texts) => {
        const events = texts.map(([summary, description], i) => ({
          id: `slot-${i}`,
          date: '2027-03-0' + String(i + 1),
          startTime: '09:00',
          endTime: '10:00',
          summary,
          location: name,
          description,
        }));
        const feed = writeCalendar({
          name,
          timeZone: 'Europe/Vienna',
          stamp: new Date('2027-01-01T00:00:00Z'),
          entries: events,
        });
        // Every line ends in CR LF; no line breaks elsewhere, no control character but a tab.
        expect(feed).not.toMatch(/\r(?!\n)|(?<!\r)\n/);
        expect(feed.replace(/\r\n/g, '')).not.toMatch(/[^\P{Cc}\t]/u);
        const lines = feed.split('\r\n');
        expect(lines.filter((l) => l === 'BEGIN:VCALENDAR')).toHaveLength(1);
        expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(events.length);
        expect(lines.filter((l) => l === 'END:VEVENT')).toHaveLength(events.length);
        expect(lines.some((l) => l.startsWith('X-INJECTED'))).toBe(false);
        const cal = new ICAL.Component(ICAL.parse(feed) as unknown[]);
        expect(unescaped(String(cal.getFirstPropertyValue('x-wr-calname')))).toBe(asRead(name));
        const vevents = cal.getAllSubcomponents('vevent');
        expect(vevents).toHaveLength(events.length);
        vevents.forEach((v, i) => {
          const event = new ICAL.Event(v);
          expect(event.uid).toBe(`slot-${i}@reading-rooms`);
          expect(event.summary ?? '').toBe(asRead(events[i]!.summary));
          expect(event.description ?? '').toBe(asRead(events[i]!.description));
          expect(event.location ?? '').toBe(asRead(name));
        });
      }),
      { numRuns: 300 },
    );
  });
});
