import ICAL from 'ical.js';
import type { ParsedMail } from 'mailparser';
import { expect } from 'vitest';

/**
 * The entries of a calendar text, parsed with ical.js: each event's UID, SEQUENCE (0 when it has
 * none), start, LOCATION and STATUS, and the calendar's METHOD.
 */
export function calendarOfText(text: string) {
  const cal = new ICAL.Component(ICAL.parse(text) as unknown[]);
  return {
    method: cal.getFirstPropertyValue('method'),
    events: cal.getAllSubcomponents('vevent').map((v) => ({
      uid: v.getFirstPropertyValue('uid'),
      sequence: v.getFirstPropertyValue('sequence') ?? 0,
      start: String(v.getFirstPropertyValue('dtstart')),
      location: v.getFirstPropertyValue('location'),
      status: v.getFirstPropertyValue('status'),
    })),
  };
}

/** The entries of a mail's .ics attachment (`calendarOfText`); the mail must have one. */
export function calendarOfMail(mail: ParsedMail | undefined) {
  const ics = mail?.attachments.find((a) => a.contentType.startsWith('text/calendar'));
  expect(ics, 'the mail has an .ics attachment').toBeDefined();
  return calendarOfText(ics!.content.toString('utf8'));
}
