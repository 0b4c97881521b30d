import { mailLibraryOf, visitorBaseOf } from './site-of-mail.ts';
import type { Language } from '@rr/contracts';
import { localDateTime, type Pool, type WaitlistReferences } from '@rr/platform';
import {
  closingHtml,
  closingLines,
  subjectOf,
  escapeHtml,
  germanDate,
  slotLine,
  texts as mailTexts,
  type MailLibrary,
} from './compose.ts';
import { waitlistLeaveLink, waitlistOfferLink } from './visitor-links.ts';

/**
 * The mail of a waitlist offer, in the entry's language: the slot (and the seat the offer holds
 * in a room with a seat plan), until when the seat is held, and the link that puts it into a cart. Loaded from the write side
 * (`waitlist_entries`, the entry's address) when it is sent; none once the offer is no longer
 * out (taken, lapsed or erased meanwhile): nobody needs it then.
 */
const texts = {
  de: {
    subject: (room: string) => `Ein Platz ist frei geworden: ${room}`,
    greeting: 'Guten Tag,',
    intro: 'auf der Warteliste für diesen Termin sind Sie jetzt an der Reihe:',
    held: (until: string) => `Wir halten den Platz für Sie bis ${until} Uhr.`,
    link: 'Platz übernehmen und die Buchung abschließen:',
    closedSubject: (room: string) => `Termin geschlossen: ${room}`,
    closed: (reason: string) =>
      `die Bibliothek hat diesen Termin geschlossen, für den Sie auf der Warteliste stehen: ${reason}`,
    closedEnd: 'Ihr Platz auf der Warteliste entfällt damit.',
  },
  en: {
    subject: (room: string) => `A seat has become free: ${room}`,
    greeting: 'Hello,',
    intro: 'it is your turn on the waitlist for this time slot:',
    held: (until: string) => `We hold the seat for you until ${until}.`,
    link: 'Take the seat and complete your booking:',
    closedSubject: (room: string) => `Time slot closed: ${room}`,
    closed: (reason: string) =>
      `the library has closed this time slot, for which you are on the waitlist: ${reason}`,
    closedEnd: 'Your place on the waitlist ends with it.',
  },
};

export interface OfferMailInput {
  language: Language;
  roomName: string;
  date: string;
  startTime: string;
  endTime: string;
  /** The seat of the room's plan the offer holds; null or absent: none. */
  seatLabel?: string | null;
  /** The offer's end, local to the library. */
  heldUntil: { date: string; time: string };
  offerUrl: string;
  library?: MailLibrary | undefined;
}

export function composeOfferMail(m: OfferMailInput) {
  const t = { ...mailTexts[m.language], ...texts[m.language] };
  const slot = slotLine(m.language, m);
  const until = `${germanDate(m.heldUntil.date)} ${m.heldUntil.time}`;
  const text = [
    t.greeting,
    '',
    t.intro,
    `- ${slot}`,
    '',
    t.held(until),
    '',
    t.link,
    m.offerUrl,
    '',
    ...closingLines(m.language, m.library),
    '',
  ].join('\n');
  const html = `<!doctype html><html lang="${m.language}"><body>
<p>${escapeHtml(t.greeting)}</p>
<p>${escapeHtml(t.intro)}</p>
<ul><li>${escapeHtml(slot)}</li></ul>
<p>${escapeHtml(t.held(until))}</p>
<p>${escapeHtml(t.link)} <a href="${escapeHtml(m.offerUrl)}">${escapeHtml(m.offerUrl)}</a></p>
${closingHtml(m.language, m.library)}
</body></html>`;
  return { subject: subjectOf(t.subject(m.roomName), m.library), text, html };
}

export async function loadOfferMail(
  pool: Pool,
  entryId: string,
  baseUrl: string,
  timeZone: string,
  library?: MailLibrary,
) {
  const r = await pool.query<{
    email: string;
    language: Language;
    time_slot_id: string;
    offer_id: string;
    offer_expires_at: Date;
    date: string;
    start_time: string;
    end_time: string;
    room_name: string;
    room_id: string;
    offer_seat_label: string | null;
  }>(
    `SELECT w.email, w.language, w.time_slot_id, w.offer_id, w.offer_expires_at, w.offer_seat_label, t.room_id,
            to_char(t.date, 'YYYY-MM-DD') AS date, t.start_time, t.end_time,
            CASE WHEN w.language = 'en' THEN coalesce(r.name_en, r.name) ELSE r.name END AS room_name
       FROM waitlist_entries w
       JOIN rm_time_slots t ON t.id = w.time_slot_id
       JOIN rm_rooms r ON r.id = t.room_id
      WHERE w.entry_id::text = $1 AND w.status = 'offered' AND w.email IS NOT NULL`,
    [entryId],
  );
  const row = r.rows[0];
  if (!row) return null;
  return {
    to: row.email,
    names: [],
    composed: composeOfferMail({
      language: row.language,
      roomName: row.room_name,
      date: row.date,
      startTime: row.start_time,
      endTime: row.end_time,
      seatLabel: row.offer_seat_label,
      heldUntil: localDateTime(row.offer_expires_at, timeZone),
      offerUrl: waitlistOfferLink(
        await visitorBaseOf(pool, [row.room_id], baseUrl),
        row.time_slot_id,
        row.offer_id,
        row.language,
      ),
      library: await mailLibraryOf(pool, [row.room_id], row.language, library),
    }),
  };
}

export interface ClosedMailInput {
  language: Language;
  roomName: string;
  date: string;
  startTime: string;
  endTime: string;
  reason: string;
  library?: MailLibrary | undefined;
}

/** The mail to someone waiting for a slot staff closed: which slot, and the library's reason. */
export function composeWaitlistClosedMail(m: ClosedMailInput) {
  const t = { ...mailTexts[m.language], ...texts[m.language] };
  const slot = slotLine(m.language, m);
  const text = [
    t.greeting,
    '',
    t.closed(m.reason),
    `- ${slot}`,
    '',
    t.closedEnd,
    '',
    ...closingLines(m.language, m.library),
    '',
  ].join('\n');
  const html = `<!doctype html><html lang="${m.language}"><body>
<p>${escapeHtml(t.greeting)}</p>
<p>${escapeHtml(t.closed(m.reason))}</p>
<ul><li>${escapeHtml(slot)}</li></ul>
<p>${escapeHtml(t.closedEnd)}</p>
${closingHtml(m.language, m.library)}
</body></html>`;
  return { subject: subjectOf(t.closedSubject(m.roomName), m.library), text, html };
}

/**
 * A waitlist entry's address and language with its slot and room, while the address is kept
 * (`waitingOnly`: and only while the entry is still in line).
 */
async function entrySlot(pool: Pool, entryId: string, waitingOnly: boolean) {
  const r = await pool.query<{
    email: string;
    language: Language;
    date: string;
    start_time: string;
    end_time: string;
    room_name: string;
    room_id: string;
  }>(
    // The room's name in the entry's language (docs/product.md#translations).
    `SELECT w.email, w.language, to_char(t.date, 'YYYY-MM-DD') AS date, t.start_time, t.end_time, t.room_id,
            CASE WHEN w.language = 'en' THEN coalesce(r.name_en, r.name) ELSE r.name END AS room_name
       FROM waitlist_entries w
       JOIN rm_time_slots t ON t.id = w.time_slot_id
       JOIN rm_rooms r ON r.id = t.room_id
      WHERE w.entry_id::text = $1 AND w.email IS NOT NULL AND (NOT $2 OR w.status = 'waiting')`,
    [entryId, waitingOnly],
  );
  return r.rows[0] ?? null;
}

/**
 * The closure mail of a waitlist entry, loaded when it is sent: none once the entry's address is
 * erased (the day after the slot's day).
 */
export async function loadWaitlistClosedMail(
  pool: Pool,
  entryId: string,
  reason: { de: string; en: string | null },
  library?: MailLibrary,
) {
  const row = await entrySlot(pool, entryId, false);
  if (!row) return null;
  return {
    to: row.email,
    names: [],
    composed: composeWaitlistClosedMail({
      language: row.language,
      roomName: row.room_name,
      date: row.date,
      startTime: row.start_time,
      endTime: row.end_time,
      reason: row.language === 'en' ? (reason.en ?? reason.de) : reason.de,
      library: await mailLibraryOf(pool, [row.room_id], row.language, library),
    }),
  };
}

/**
 * The mail confirming a place in line, in the entry's language: the slot, how an offer will come,
 * and the link that leaves the line (the entry's reference, `waitlistReferences`). None once
 * the entry is no longer in line (left, removed, offered or erased meanwhile).
 */
const joinTexts = {
  de: {
    subject: (room: string) => `Sie stehen auf der Warteliste: ${room}`,
    greeting: 'Guten Tag,',
    intro: 'Sie stehen auf der Warteliste für diesen Termin:',
    how: 'Sobald ein Platz frei wird und Sie an der Reihe sind, bieten wir ihn Ihnen per E-Mail an.',
    leave: 'Wenn Sie nicht mehr warten möchten, verlassen Sie die Warteliste hier:',
  },
  en: {
    subject: (room: string) => `You are on the waitlist: ${room}`,
    greeting: 'Hello,',
    intro: 'you are on the waitlist for this time slot:',
    how: 'As soon as a seat becomes free and it is your turn, we offer it to you by e-mail.',
    leave: 'If you no longer wish to wait, leave the waitlist here:',
  },
};

export interface JoinMailInput {
  language: Language;
  roomName: string;
  date: string;
  startTime: string;
  endTime: string;
  leaveUrl: string;
  library?: MailLibrary | undefined;
}

export function composeJoinMail(m: JoinMailInput) {
  const t = { ...mailTexts[m.language], ...joinTexts[m.language] };
  const slot = slotLine(m.language, m);
  const text = [
    t.greeting,
    '',
    t.intro,
    `- ${slot}`,
    '',
    t.how,
    '',
    t.leave,
    m.leaveUrl,
    '',
    ...closingLines(m.language, m.library),
    '',
  ].join('\n');
  const html = `<!doctype html><html lang="${m.language}"><body>
<p>${escapeHtml(t.greeting)}</p>
<p>${escapeHtml(t.intro)}</p>
<ul><li>${escapeHtml(slot)}</li></ul>
<p>${escapeHtml(t.how)}</p>
<p>${escapeHtml(t.leave)} <a href="${escapeHtml(m.leaveUrl)}">${escapeHtml(m.leaveUrl)}</a></p>
${closingHtml(m.language, m.library)}
</body></html>`;
  return { subject: subjectOf(t.subject(m.roomName), m.library), text, html };
}

export async function loadJoinMail(
  pool: Pool,
  entryId: string,
  baseUrl: string,
  references: WaitlistReferences,
  library?: MailLibrary,
) {
  const row = await entrySlot(pool, entryId, true);
  if (!row) return null;
  return {
    to: row.email,
    names: [],
    composed: composeJoinMail({
      language: row.language,
      roomName: row.room_name,
      date: row.date,
      startTime: row.start_time,
      endTime: row.end_time,
      leaveUrl: waitlistLeaveLink(
        await visitorBaseOf(pool, [row.room_id], baseUrl),
        references.codeOf(entryId),
        row.language,
      ),
      library: await mailLibraryOf(pool, [row.room_id], row.language, library),
    }),
  };
}
