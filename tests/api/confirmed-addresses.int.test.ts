import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseDueTickets, releaseUnconfirmed } from '@rr/command-service';
import { addDays } from '@rr/domain';
import { ManualClock } from '@rr/platform';
import type { ParsedMail } from 'mailparser';
import { Client } from '../support/app.ts';
import {
  bookAsNewVisitor,
  createRoom,
  createSlot,
  OPEN_FROM_TODAY,
  openMailSuite,
  type MailSuite,
  type NewVisitorBooking,
  sendPendingMails,
} from '../support/fixtures.ts';
import { budget } from '../support/time-budget.ts';
import { compareWithRebuild } from '../support/read-models.ts';
import { waitFor } from '../support/wait-for.ts';

/**
 * Confirmed addresses (docs/product.md#confirmed-addresses): a room's `confirmBookingMinutes`
 * makes a visitor's booking await the confirmation mail's link; confirmed through the owner
 * page's POST with the secret only the mail's link carries (the owner id alone, which the booker
 * has, confirms nothing), or released by the job at the deadline (actor `system`, a short mail),
 * with a 409 for a confirmation after it. A room without the setting books as always. And the race: 50
 * confirmations against release rounds at the deadline leave each ticket confirmed or released,
 * never both, the read models agreeing.
 */
const BASE = new Date('2026-11-23T08:00:00Z'); // 09:00 in Vienna
const clock = new ManualClock(BASE);
const TODAY = BASE.toISOString().slice(0, 10);
const DAY = addDays(TODAY, 3);
const MINUTE = 60_000;

let suite: MailSuite;
let confirming: string;
let plain: string;

/** The visitor's client reads its own writes, as the browser does. */
type Booked = NewVisitorBooking;

interface OwnerTicket {
  id: string;
  status: string;
  confirmBy: string | null;
  unconfirmed: boolean;
}

/** Books a ticket of each slot as a new visitor, Ms Erika Leserin. */
const book = (
  timeSlotId: string,
  language: 'de' | 'en' = 'de',
  ...more: string[]
): Promise<Booked> => bookAsNewVisitor(suite.app.baseUrl, [timeSlotId, ...more], language);

/** The owner page's tickets, read by the visitor's client (its own writes seen). */
async function ownerTickets(b: Booked): Promise<OwnerTicket[]> {
  const res = await b.client.get(`/api/owners/${b.ownerId}/tickets`);
  expect(res.status).toBe(200);
  return (await res.json()) as OwnerTicket[];
}

/** The confirmation as the owner page posts it: with the token of the mail's link, or without. */
const confirm = (b: Pick<Booked, 'ownerId' | 'client'>, token?: string) =>
  b.client.request(
    'POST',
    `/api/owners/${b.ownerId}/confirm`,
    token === undefined ? {} : { json: { token } },
  );

/**
 * The token of the confirmation link in a mail to the owner (only the mail carries it), the link
 * naming the booking's language before the token.
 */
function tokenOf(mail: ParsedMail | undefined, ownerId: string, lang: 'de' | 'en' = 'de'): string {
  const link = new RegExp(
    `https://library\\.example/reserve/reservation-confirmation/${ownerId}\\?lang=${lang}#confirm=([A-Za-z0-9_-]+)`,
  ).exec(mail?.text ?? '');
  expect(link, 'the confirmation link in the mail').not.toBeNull();
  expect(mail!.html).toContain(link![0]);
  return link![1]!;
}

/** The booking's confirmations in the event log. */
const confirmedEvents = async (ticketId: string) =>
  (
    await suite.db.pool.query(
      `SELECT 1 FROM events WHERE event_type = 'TicketConfirmed' AND data->>'ticketId' = $1`,
      [ticketId],
    )
  ).rowCount;

/** A refusal of a confirmation without the mail's secret: problem+json, its catalogue code. */
async function expectLinkRefused(res: Response) {
  expect(res.status).toBe(403);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(await res.json()).toMatchObject({ error: 'booking__confirmation_link_invalid' });
}

const sendAll = (count: number) => sendPendingMails(suite, count);

/** The ticket as the staff's reservations list shows it, once the read models caught up. */
async function staffTicket(ticketId: string) {
  const res = await suite.admin.get(`/api/admin/tickets/${ticketId}`);
  expect(res.status).toBe(200);
  return (await res.json()) as OwnerTicket;
}

async function services(roomId: string, body: Record<string, unknown>) {
  return suite.admin.request('PUT', `/api/admin/rooms/${roomId}/services`, { json: body });
}

beforeAll(async () => {
  suite = await openMailSuite(clock);
  confirming = await createRoom(suite.admin, 'Großer Lesesaal', OPEN_FROM_TODAY);
  plain = await createRoom(suite.admin, 'Zeitschriftenraum', OPEN_FROM_TODAY);
  expect((await services(confirming, { confirmBookingMinutes: 30 })).status).toBe(200);
});
afterAll(() => suite.close());

describe('the room service confirmBookingMinutes', () => {
  it('is set with the other services, validated, and shown with the room', async () => {
    const room = (await (await suite.admin.get(`/api/admin/rooms/${confirming}`)).json()) as {
      services: Record<string, unknown>;
    };
    expect(room.services.confirmBookingMinutes).toBe(30);
    const tooShort = await services(plain, { confirmBookingMinutes: 4 });
    expect(tooShort.status).toBe(400);
    expect(((await tooShort.json()) as { error: string }).error).toBe('validation__error');
    const other = (await (await suite.admin.get(`/api/admin/rooms/${plain}`)).json()) as {
      services: Record<string, unknown>;
    };
    expect(other.services).not.toHaveProperty('confirmBookingMinutes');
  });
});

describe('a booking in a room with confirmed addresses', () => {
  it('awaits confirmation, the mail asks for it, a GET never confirms, the POST does (twice: no error)', async () => {
    const slot = await createSlot(suite.admin, confirming, DAY, '10:00', '12:00', 5);
    const b = await book(slot, 'de');
    // 09:00 + 30 minutes in Vienna; the slot starts days later.
    const deadline = new Date(BASE.getTime() + 30 * MINUTE).toISOString();
    expect(await ownerTickets(b)).toMatchObject([
      { id: b.ticketId, status: 'BOOKED', confirmBy: deadline, unconfirmed: false },
    ]);
    const [mail] = await sendAll(1);
    expect(mail!.subject).toBe(`Ihre Buchung ${b.bookingNumber}`);
    expect(mail!.text).toContain('Bitte bestätigen Sie Ihre Buchung bis 23.11.2026, 09:30 Uhr');
    expect(mail!.text).toContain(
      `https://library.example/reserve/reservation-confirmation/${b.ownerId}?lang=de`,
    );
    // Staff see it awaiting confirmation: in the list's filter and per ticket.
    await expect
      .poll(() => staffTicket(b.ticketId), { timeout: budget(5000) })
      .toMatchObject({ status: 'BOOKED', confirmBy: deadline });
    const list = (await (
      await suite.admin.get(`/api/admin/tickets?status=AWAITING_CONFIRMATION`)
    ).json()) as { content: { id: string }[] };
    expect(list.content.map((t) => t.id)).toEqual([b.ticketId]);
    const csv = await (
      await suite.admin.get(`/api/admin/tickets/export.csv?status=AWAITING_CONFIRMATION`)
    ).text();
    expect(csv).toContain('AWAITING_CONFIRMATION');
    // Opening the page (its GETs) confirmed nothing.
    expect((await ownerTickets(b))[0]!.confirmBy).toBe(deadline);

    const token = tokenOf(mail, b.ownerId);
    const first = await confirm(b, token);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ confirmed: 1 });
    const again = await confirm(b, token);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ confirmed: 0 });
    expect(await ownerTickets(b)).toMatchObject([
      { id: b.ticketId, status: 'BOOKED', confirmBy: null, unconfirmed: false },
    ]);
    // At the deadline there is nothing to release.
    clock.set(new Date(deadline));
    expect(await releaseUnconfirmed(suite.app.deps)).toBe(0);
    clock.set(BASE);
  });

  it("never waits past the slot's start", async () => {
    // Today at 09:10 in Vienna, ten minutes after the booking: the start is the deadline.
    const soon = await createSlot(suite.admin, confirming, TODAY, '09:10', '09:50', 5);
    const b = await book(soon, 'de');
    expect((await ownerTickets(b))[0]!.confirmBy).toBe('2026-11-23T08:10:00.000Z');
    const [mail] = await sendAll(1);
    expect((await confirm(b, tokenOf(mail, b.ownerId))).status).toBe(200);
  });

  it('is released at the deadline by the job (actor system, a short mail); confirming then answers 409', async () => {
    const full = await createSlot(suite.admin, confirming, DAY, '14:00', '16:00', 1);
    const b = await book(full, 'en');
    const token = tokenOf((await sendAll(1))[0], b.ownerId, 'en');
    // The seat is taken while it awaits confirmation: no overbooking.
    const other = new Client(suite.app.baseUrl);
    const refused = await other.request('POST', '/api/transactions', {
      json: { timeSlotId: full },
    });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({
      error: 'ticket__validation_error',
      payload: ['timeslot_no_tickets_left'],
    });

    clock.set(new Date(BASE.getTime() + 30 * MINUTE - 1000));
    expect(await releaseDueTickets(suite.app.deps)).toBe(0);
    clock.set(new Date(BASE.getTime() + 30 * MINUTE));
    expect(await releaseDueTickets(suite.app.deps)).toBe(1);
    expect(await releaseDueTickets(suite.app.deps)).toBe(0);

    const events = await suite.db.pool.query<{ metadata: { actor: unknown } }>(
      `SELECT metadata FROM events WHERE event_type = 'TicketConfirmationLapsed' AND data->>'ticketId' = $1`,
      [b.ticketId],
    );
    expect(events.rows.map((r) => r.metadata.actor)).toEqual([
      { kind: 'system', job: 'confirmation-release' },
    ]);
    // The job wrote it, not the visitor's client: the owner page shows it once the read models
    // caught up.
    await expect
      .poll(() => ownerTickets(b), { timeout: budget(5000) })
      .toMatchObject([{ id: b.ticketId, status: 'INVALID', confirmBy: null, unconfirmed: true }]);
    const late = await confirm(b, token);
    expect(late.status).toBe(409);
    expect(late.headers.get('content-type')).toContain('application/problem+json');
    expect(await late.json()).toMatchObject({ error: 'booking__confirmation_lapsed' });

    const [mail] = await sendAll(1);
    expect(mail!.subject).toBe(`Your booking ${b.bookingNumber} was not confirmed`);
    expect(mail!.text).toContain('Dear Ms Erika Leserin,');
    expect(mail!.text).toContain('You did not confirm your booking in time');
    expect(mail!.text).toContain('Großer Lesesaal');

    // The seat is free again: another visitor takes it.
    const again = await other.request('POST', '/api/transactions', { json: { timeSlotId: full } });
    expect(again.status).toBe(201);
    await expect
      .poll(() => staffTicket(b.ticketId), { timeout: budget(5000) })
      .toMatchObject({ status: 'INVALID', unconfirmed: true });
    clock.set(BASE);
  });

  it("releases a booking's due tickets together: one mail names them all", async () => {
    clock.set(BASE);
    const morning = await createSlot(suite.admin, confirming, addDays(DAY, 2), '09:00', '10:00', 5);
    const noon = await createSlot(suite.admin, confirming, addDays(DAY, 2), '12:00', '13:00', 5);
    const b = await book(morning, 'de', noon);
    await sendAll(1);
    clock.set(new Date(BASE.getTime() + 30 * MINUTE));
    expect(await releaseUnconfirmed(suite.app.deps)).toBe(2);
    const [mail] = await sendAll(1);
    expect(mail!.subject).toBe(`Ihre Buchung ${b.bookingNumber} wurde nicht bestätigt`);
    expect(mail!.text).toContain('09:00–10:00 Uhr');
    expect(mail!.text).toContain('12:00–13:00 Uhr');
    clock.set(BASE);
  });

  it('a confirmation at or after the deadline is refused even before the job ran', async () => {
    clock.set(BASE);
    const slot = await createSlot(suite.admin, confirming, DAY, '17:00', '18:00', 5);
    const b = await book(slot, 'de');
    const token = tokenOf((await sendAll(1))[0], b.ownerId);
    clock.set(new Date(BASE.getTime() + 30 * MINUTE));
    const late = await confirm(b, token);
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ error: 'booking__confirmation_lapsed' });
    expect(await releaseUnconfirmed(suite.app.deps)).toBe(1);
    await sendAll(1);
    clock.set(BASE);
  });
});

describe("the confirmation needs the secret of the mail's link", () => {
  it("the owner id alone, a wrong token or another booking's refuse and change nothing; the mail's token confirms", async () => {
    clock.set(BASE);
    const slot = await createSlot(suite.admin, confirming, addDays(DAY, 4), '10:00', '12:00', 5);
    // The booker has the owner id (the booking's answer, the booked page) but not the mailbox.
    const b = await book(slot, 'de');
    const other = await book(slot, 'en');
    const deadline = new Date(BASE.getTime() + 30 * MINUTE).toISOString();
    await expectLinkRefused(await confirm(b));
    await expectLinkRefused(await confirm(b, 'A'.repeat(43)));

    const mails = await sendAll(2);
    const mail = mails.find((m) => m.text?.includes(`reservation-confirmation/${b.ownerId}?`));
    const token = tokenOf(mail, b.ownerId);
    const othersToken = tokenOf(
      mails.find((m) => m.text?.includes(`reservation-confirmation/${other.ownerId}?`)),
      other.ownerId,
      'en',
    );
    expect(othersToken).not.toBe(token);
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const wrong of [undefined, '', altered, othersToken, token.slice(1)])
      await expectLinkRefused(await confirm(b, wrong));
    // Too long to be a token: the field's error.
    const long = await confirm(b, 'A'.repeat(1000));
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ error: 'validation__error' });
    // Nothing changed: no confirmation in the log, the ticket still awaits it.
    expect(await confirmedEvents(b.ticketId)).toBe(0);
    expect(await ownerTickets(b)).toMatchObject([
      { id: b.ticketId, status: 'BOOKED', confirmBy: deadline },
    ]);

    const res = await confirm(b, token);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ confirmed: 1 });
    expect(await confirmedEvents(b.ticketId)).toBe(1);
    // The other booking still awaits its own token.
    expect(await confirmedEvents(other.ticketId)).toBe(0);
    expect((await confirm(other, othersToken)).status).toBe(200);

    // The token is a secret: beside the log only its SHA-256, in the log and the outbox nothing.
    const stored = await suite.db.pool.query<{ hash: string }>(
      `SELECT encode(token_hash, 'hex') AS hash FROM confirmation_tokens WHERE owner_id = $1`,
      [b.ownerId],
    );
    expect(stored.rows).toEqual([{ hash: createHash('sha256').update(token).digest('hex') }]);
    const clear = await suite.db.pool.query(
      `SELECT 1 FROM events e WHERE e.data::text LIKE '%' || $1 || '%'
       UNION ALL SELECT 1 FROM mail_outbox m WHERE row_to_json(m)::text LIKE '%' || $1 || '%'
       UNION ALL SELECT 1 FROM confirmation_tokens c WHERE row_to_json(c)::text LIKE '%' || $1 || '%'`,
      [token],
    );
    expect(clear.rowCount).toBe(0);
  });

  it('a mail sent again carries a link of its own, and the first link still works', async () => {
    clock.set(BASE);
    const slot = await createSlot(suite.admin, confirming, addDays(DAY, 4), '13:00', '14:00', 5);
    const b = await book(slot, 'en');
    const [first] = await sendAll(1);
    const firstToken = tokenOf(first, b.ownerId, 'en');
    // Sent again (a lease that ran out while the first send was in flight: at least once).
    await suite.db.pool.query(
      `UPDATE mail_outbox SET status = 'pending', next_attempt_at = $2
        WHERE owner_id = $1 AND kind = 'confirmation'`,
      [b.ownerId, clock.now()],
    );
    const [second] = await sendAll(1);
    const secondToken = tokenOf(second, b.ownerId, 'en');
    expect(secondToken).not.toBe(firstToken);
    const res = await confirm(b, firstToken);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ confirmed: 1 });
    const again = await confirm(b, secondToken);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ confirmed: 0 });
  });

  it('a booking whose confirmation mail went out without a token (the previous release) gets a mail with one', async () => {
    clock.set(BASE);
    const slot = await createSlot(suite.admin, confirming, addDays(DAY, 4), '15:00', '16:00', 5);
    const b = await book(slot, 'de');
    // The previous release's sender sent the confirmation mail: a link without a token.
    await expect
      .poll(
        async () =>
          (
            await suite.db.pool.query(
              `UPDATE mail_outbox SET status = 'sent', sent_at = $2, attempts = 1
                WHERE owner_id = $1 AND kind = 'confirmation' AND status = 'pending'`,
              [b.ownerId, clock.now()],
            )
          ).rowCount,
        { timeout: budget(5000) },
      )
      .toBe(1);
    await expectLinkRefused(await confirm(b));
    const before = suite.sink.messages.length;
    expect(await suite.sender.sendDue()).toBe(1);
    const [mail] = suite.sink.messages.slice(before);
    expect(mail!.subject).toBe(`Ihre Buchung ${b.bookingNumber}`);
    expect(mail!.text).toContain('Bitte bestätigen Sie Ihre Buchung bis 23.11.2026, 09:30 Uhr');
    const token = tokenOf(mail, b.ownerId);
    // Once: the next rounds send nothing more.
    expect(await suite.sender.sendDue()).toBe(0);
    const res = await confirm(b, token);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ confirmed: 1 });
    expect(await suite.sender.sendDue()).toBe(0);
  });
});

describe('a room without the setting', () => {
  it('books at once, asks for nothing, and a confirmation (no link asked for one) changes nothing', async () => {
    const slot = await createSlot(suite.admin, plain, DAY, '10:00', '12:00', 5);
    const b = await book(slot, 'en');
    expect(await ownerTickets(b)).toMatchObject([
      { id: b.ticketId, status: 'BOOKED', confirmBy: null, unconfirmed: false },
    ]);
    const [mail] = await sendAll(1);
    expect(mail!.text).not.toContain('confirm your booking by');
    expect(mail!.text).not.toContain('#confirm=');
    await expectLinkRefused(await confirm(b));
    expect(await confirmedEvents(b.ticketId)).toBe(0);
    clock.set(new Date(BASE.getTime() + 24 * 60 * MINUTE));
    expect(await releaseUnconfirmed(suite.app.deps)).toBe(0);
    expect((await ownerTickets(b))[0]!.status).toBe('BOOKED');
    clock.set(BASE);
  });

  it('an unknown owner is 404', async () => {
    const client = new Client(suite.app.baseUrl);
    expect((await confirm({ ownerId: 'f'.repeat(32), client })).status).toBe(404);
    expect((await confirm({ ownerId: 'not-an-owner', client })).status).toBe(404);
    // A damaged link's id is unknown whatever body comes with it (the body is read after it).
    for (const body of ['8', '{"a":'])
      expect(
        (
          await fetch(`${suite.app.baseUrl}/api/owners/%00/confirm`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
            body,
          })
        ).status,
      ).toBe(404);
    // A well-formed id with an unreadable body: the body's error.
    const unreadable = await fetch(`${suite.app.baseUrl}/api/owners/${'f'.repeat(32)}/confirm`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
      body: '{"a":',
    });
    expect(unreadable.status).toBe(400);
    expect(await unreadable.json()).toMatchObject({ error: 'validation__error' });
  });
});

describe('confirmations racing the release at the deadline', () => {
  it('leave each of 50 tickets confirmed or released, never both; the read models agree', async () => {
    clock.set(BASE);
    const slots = [];
    for (let i = 0; i < 5; i++)
      slots.push(
        await createSlot(
          suite.admin,
          confirming,
          addDays(DAY, 1),
          `${10 + i}:00`,
          `${10 + i}:30`,
          10,
        ),
      );
    const booked: Booked[] = [];
    for (let i = 0; i < 50; i++) booked.push(await book(slots[i % 5]!));
    const mails = await sendAll(50);
    const tokens = booked.map((b) =>
      tokenOf(
        mails.find((m) => m.text?.includes(`reservation-confirmation/${b.ownerId}?`)),
        b.ownerId,
      ),
    );
    const deadline = new Date(BASE.getTime() + 30 * MINUTE);
    // A second before the deadline the confirmations set off; once the first have answered (the
    // others in flight, some decided and not yet committed), the clock reaches the deadline and
    // two release rounds (two processes, or a round overrunning) run beside the rest.
    clock.set(new Date(deadline.getTime() - 1000));
    let answered = 0;
    const confirmations = Promise.all(
      booked.map((b, i) =>
        confirm(b, tokens[i]).then((res) => {
          answered += 1;
          return res;
        }),
      ),
    );
    await waitFor('the first confirmations', () => answered >= 10, budget(20_000));
    clock.set(deadline);
    const rounds = Promise.all([
      releaseUnconfirmed(suite.app.deps),
      releaseUnconfirmed(suite.app.deps),
    ]);
    const [answers] = await Promise.all([confirmations, rounds]);
    // What the racing rounds left (a confirmation refused before any round saw it due).
    await releaseUnconfirmed(suite.app.deps);

    const outcomes = { confirmed: 0, released: 0 };
    for (const [i, b] of booked.entries()) {
      const r = await suite.db.pool.query<{ event_type: string }>(
        `SELECT event_type FROM events WHERE data->>'ticketId' = $1
            AND event_type IN ('TicketConfirmed', 'TicketConfirmationLapsed')`,
        [b.ticketId],
      );
      const types = r.rows.map((x) => x.event_type);
      expect(types, b.ticketId).toHaveLength(1);
      const answer = answers[i]!;
      if (types[0] === 'TicketConfirmed') {
        expect(answer.status).toBe(200);
        outcomes.confirmed += 1;
      } else {
        expect(answer.status).toBe(409);
        expect(((await answer.json()) as { error: string }).error).toBe(
          'booking__confirmation_lapsed',
        );
        outcomes.released += 1;
      }
      // The table beside the log agrees at once, the read model once it caught up.
      const state = await suite.db.pool.query<{ status: string; confirm_by: Date | null }>(
        'SELECT status, confirm_by FROM ticket_state WHERE ticket_id = $1',
        [b.ticketId],
      );
      expect(state.rows[0]).toEqual({
        status: types[0] === 'TicketConfirmed' ? 'BOOKED' : 'INVALID',
        confirm_by: null,
      });
    }
    await expect
      .poll(
        async () =>
          (
            await suite.db.pool.query<{
              id: string;
              status: string;
              unconfirmed: boolean;
              confirmed: boolean;
            }>(
              `SELECT id, status, unconfirmed, confirmed_at IS NOT NULL AS confirmed
                 FROM rm_tickets WHERE id = ANY($1::uuid[]) AND confirm_by IS NULL`,
              [booked.map((b) => b.ticketId)],
            )
          ).rows.filter(
            (t) =>
              (t.status === 'BOOKED' && t.confirmed && !t.unconfirmed) ||
              (t.status === 'INVALID' && t.unconfirmed && !t.confirmed),
          ).length,
        { timeout: budget(10_000) },
      )
      .toBe(50);
    const counts = await suite.db.pool.query<{ booked: number }>(
      `SELECT count(*)::int AS booked FROM rm_tickets WHERE id = ANY($1::uuid[]) AND status = 'BOOKED'`,
      [booked.map((b) => b.ticketId)],
    );
    expect(counts.rows[0]!.booked).toBe(outcomes.confirmed);
    expect(outcomes.confirmed + outcomes.released).toBe(50);
    // Both sides won some: the confirmations answered before the deadline, and some after it.
    expect(outcomes.confirmed).toBeGreaterThanOrEqual(10);
    expect(outcomes.released).toBeGreaterThan(0);
    // The deadlines, confirmations and releases are in the log: a rebuild gives the same rows.
    const { live, rebuilt } = await compareWithRebuild(suite.db.pool, budget(20_000));
    expect(rebuilt).toEqual(live);
    console.log(
      `confirmation vs release at the deadline: 50 races, ${outcomes.confirmed} confirmed first, ${outcomes.released} released first, 0 both`,
    );
    clock.set(BASE);
  });
});
