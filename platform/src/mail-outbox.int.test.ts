import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../tests/support/db.ts';
import { claimDueMail, enqueueTicketMail, markMailSent } from './mail-outbox.ts';

/**
 * One mail per request and owner names all the request's tickets, but a ticket that comes after a
 * sender took the mail (a large request's events read in more than one page) must not vanish
 * into a mail already on its way: it gets a mail of its own.
 */
let db: TestDatabase;
const AT = new Date('2026-11-23T09:00:00Z');
const LATER = new Date(AT.getTime() + 60_000);

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

const enqueue = (id: string, ticketId: string) =>
  enqueueTicketMail(db.pool, { id, kind: 'release', ownerId: 'owner-1', ticketId, at: AT });

async function mails(prefix: string) {
  const r = await db.pool.query<{ id: string; status: string; ticket_ids: string[] }>(
    `SELECT id, status, ticket_ids FROM mail_outbox WHERE id LIKE $1 || '%' ORDER BY id COLLATE "C"`,
    [prefix],
  );
  return r.rows;
}

/** Claims the request's mail (the only due one of its prefix) as a sender would. */
async function claim(id: string) {
  const lease = randomUUID();
  const row = await claimDueMail(db.pool, LATER, new Date(LATER.getTime() + 60_000), lease);
  expect(row?.id).toBe(id);
  return lease;
}

describe('a ticket mail of a request', () => {
  it('gathers the tickets while no sender holds it, each once however often it is told', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await enqueue('release:1:owner-1', a);
    await enqueue('release:1:owner-1', b);
    await enqueue('release:1:owner-1', a);
    expect(await mails('release:1:')).toEqual([
      { id: 'release:1:owner-1', status: 'pending', ticket_ids: [a, b] },
    ]);
    const lease = await claim('release:1:owner-1');
    expect(await markMailSent(db.pool, 'release:1:owner-1', lease, LATER)).toBe(true);
  });

  it('gives a ticket that comes while a sender holds the mail, or after it was sent, a mail of its own', async () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    await enqueue('release:2:owner-1', a);
    const lease = await claim('release:2:owner-1');
    await enqueue('release:2:owner-1', b);
    expect(await markMailSent(db.pool, 'release:2:owner-1', lease, LATER)).toBe(true);
    await enqueue('release:2:owner-1', c);
    // Told again (the reactor reads the events once more): nothing more.
    await enqueue('release:2:owner-1', a);
    await enqueue('release:2:owner-1', b);
    const own = [b, c].sort().map((t) => ({
      id: `release:2:owner-1:${t}`,
      status: 'pending',
      ticket_ids: [t],
    }));
    expect(await mails('release:2:')).toEqual([
      { id: 'release:2:owner-1', status: 'sent', ticket_ids: [a] },
      ...own,
    ]);
  });
});
