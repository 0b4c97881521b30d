import type { Language } from '@rr/contracts';
import { localDateTime, type MyBookingsLinks, type Pool } from '@rr/platform';
import {
  closingHtml,
  closingLines,
  escapeHtml,
  germanDate,
  texts as mailTexts,
  type MailLibrary,
} from './compose.ts';
import { myBookingsLink } from './visitor-links.ts';
import { visitorBaseOf } from './site-of-mail.ts';

/**
 * The mail of a "my bookings" request (docs/product.md#my-bookings), in its language: the link
 * to the page of every booking of the address and until when it is valid. The same mail goes to
 * every address, with bookings or without: the page tells.
 */
const texts = {
  de: {
    subject: 'Ihre Buchungen',
    greeting: 'Guten Tag,',
    intro: 'unter diesem Link sehen Sie alle Ihre Buchungen ab heute und können sie stornieren:',
    valid: (until: string) => `Der Link gilt bis ${until} Uhr.`,
    notYou: 'Haben Sie den Link nicht angefordert? Dann können Sie diese Mail ignorieren.',
  },
  en: {
    subject: 'Your bookings',
    greeting: 'Hello,',
    intro: 'this link shows all your bookings from today on, where you can also cancel them:',
    valid: (until: string) => `The link is valid until ${until}.`,
    notYou: 'Did you not ask for this link? Then you can ignore this mail.',
  },
};

export interface MyBookingsMailInput {
  language: Language;
  url: string;
  /** The link's end, local to the library. */
  validUntil: { date: string; time: string };
  library?: MailLibrary | undefined;
}

export function composeMyBookingsMail(m: MyBookingsMailInput) {
  const t = { ...mailTexts[m.language], ...texts[m.language] };
  const until = `${germanDate(m.validUntil.date)} ${m.validUntil.time}`;
  const text = [
    t.greeting,
    '',
    t.intro,
    m.url,
    '',
    t.valid(until),
    t.notYou,
    '',
    ...closingLines(m.language, m.library),
    '',
  ].join('\n');
  const html = `<!doctype html><html lang="${m.language}"><body>
<p>${escapeHtml(t.greeting)}</p>
<p>${escapeHtml(t.intro)} <a href="${escapeHtml(m.url)}">${escapeHtml(m.url)}</a></p>
<p>${escapeHtml(t.valid(until))} ${escapeHtml(t.notYou)}</p>
${closingHtml(m.language, m.library)}
</body></html>`;
  return { subject: t.subject, text, html };
}

/** The mail of a request, while its row (and so its address) is kept and its link valid. */
export async function loadMyBookingsMail(
  pool: Pool,
  requestId: string,
  baseUrl: string,
  links: MyBookingsLinks,
  timeZone: string,
  now: Date,
  library?: MailLibrary,
) {
  const r = await pool.query<{
    email: string;
    language: Language;
    expires_at: Date;
    room_ids: string[];
  }>(
    // The rooms of the tickets the link lists (booked, from today on): all of one site, the
    // link leads below its address (docs/product.md#sites).
    `SELECT q.email, q.language, q.expires_at,
            ARRAY(SELECT DISTINCT t.room_id::text FROM rm_tickets t
                   WHERE t.owner_id IN (SELECT owner_id FROM bookings WHERE visitor_key = q.visitor_key)
                     AND t.status = 'BOOKED' AND t.date >= $3::date) AS room_ids
       FROM my_bookings_requests q
      WHERE q.id::text = $1 AND q.expires_at > $2`,
    [requestId, now, localDateTime(now, timeZone).date],
  );
  const row = r.rows[0];
  if (!row) return null;
  return {
    to: row.email,
    names: [],
    composed: composeMyBookingsMail({
      language: row.language,
      url: myBookingsLink(
        await visitorBaseOf(pool, row.room_ids, baseUrl),
        links.codeOf(requestId),
        row.language,
      ),
      validUntil: localDateTime(row.expires_at, timeZone),
      library,
    }),
  };
}
