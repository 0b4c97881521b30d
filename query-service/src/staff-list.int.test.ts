import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PersonalDataErased, transactionStreamId } from '@rr/events';
import { openAdminSuite, type AdminSuite } from '../../tests/support/app.ts';

/**
 * The reservations list sorted by name reads its page without sorting every ticket (see
 * listTicketsByName). It must answer exactly what the generic query answers: the same sort with
 * a second key that changes nothing (name, then date) takes the generic path.
 */
describe('reservations list sorted by name', () => {
  let suite: AdminSuite;
  const rooms = [randomUUID(), randomUUID()];
  const LAST = ['Müller', 'müller', 'Bauer', 'Özdemir', 'Zechner', 'de la Cruz', '', 'Huber'];
  const FIRST = ['Anna', 'anna', 'Lukas', '', 'Zoë'];

  beforeAll(async () => {
    suite = await openAdminSuite();
    const { pool } = suite.db;
    for (const [i, id] of rooms.entries())
      await pool.query(
        `INSERT INTO rm_rooms (id, version, name, description, capacity, open_start_type, open_start_value,
           open_end_type, open_end_value, sort_order, created_at)
         VALUES ($1, 1, $2, '', 5, 'DAY', 1, 'DAY', 30, $3, '2026-01-01T08:00:00Z')`,
        [id, `Room ${i}`, i],
      );
    let n = 0;
    const rnd = (k: number) => Math.floor(Math.random() * k);
    const ticket = async (ownerId: string | null, status: string, erased = false) => {
      n += 1;
      await pool.query(
        `INSERT INTO rm_tickets (id, transaction_id, owner_id, time_slot_id, room_id, date, start_time, end_time,
           status, booking_number, created_at, personal_data_erased)
         VALUES ($1, $2, $3, $4, $5, $6, $7, '20:00', $8, $9, '2026-01-01T08:00:00Z', $10)`,
        [
          randomUUID(),
          randomUUID(),
          ownerId,
          randomUUID(),
          rooms[rnd(2)],
          `2026-0${1 + rnd(3)}-1${rnd(3)}`,
          ['08:00', '12:00'][rnd(2)],
          status,
          ownerId ? `R-${n}` : null,
          erased,
        ],
      );
    };
    const owner = async (last: string | null, first: string | null, erased: boolean) => {
      const ownerId = randomBytes(16).toString('hex');
      await pool.query(
        `INSERT INTO bookings (owner_id, transaction_id, visitor_key, booking_number, language, created_at)
         VALUES ($1, $2, $3, $4, 'de', '2026-01-01T08:00:00Z')`,
        [ownerId, randomUUID(), 'a'.repeat(40), `B-${ownerId.slice(0, 8)}`],
      );
      if (!erased)
        await pool.query(
          `INSERT INTO personal_data (owner_id, salutation, first_name, last_name, organisation, email, erase_after)
           VALUES ($1, 'NONE', $2, $3, $4, $5, '2030-01-01')`,
          [
            ownerId,
            first,
            last,
            rnd(2) ? 'Universität Wien' : null,
            `${ownerId.slice(0, 6)}@example.org`,
          ],
        );
      return ownerId;
    };
    for (let i = 0; i < 140; i++) {
      const erased = i % 9 === 0;
      const o = await owner(LAST[rnd(LAST.length)]!, FIRST[rnd(FIRST.length)]!, erased);
      for (let k = 1 + rnd(3); k > 0; k--)
        await ticket(o, ['BOOKED', 'BOOKED', 'CANCELLED'][rnd(3)]!, erased);
    }
    for (let i = 0; i < 15; i++) await ticket(null, ['NEW', 'INVALID'][rnd(2)]!);
    // An erasure the tickets read model has not flagged yet: only its event tells.
    const lagging = await owner('Lag', 'Gina', true);
    await ticket(lagging, 'BOOKED', false);
    await suite.db.store.appendToStream(
      transactionStreamId(randomUUID()),
      'transaction',
      'any',
      [PersonalDataErased.create({ ownerId: lagging })],
      { metadata: { actor: { kind: 'system', job: 'test' } } },
    );
  });

  afterAll(async () => {
    await suite.close();
  });

  const page = async (query: string) => {
    const res = await suite.admin.get(`/api/admin/tickets?${query}`);
    expect(res.status).toBe(200);
    return (await res.json()) as { content: { id: string }[]; totalCount: number };
  };

  it('answers the pages, counts and searches of the generic query', async () => {
    let compared = 0;
    for (const dir of ['ASC', 'DESC'])
      for (const filter of [
        '',
        '&status=ALL',
        '&status=CANCELED_ONLY',
        // Totals from the kept counts (rm_ticket_counts): status, room and dates.
        '&status=ALL&fromDate=2026-02-01',
        `&roomId=${rooms[0]}&fromDate=2026-01-11&untilDate=2026-02-11`,
        // Totals by counting the tickets: a filter the kept counts do not have.
        '&fromTime=10:00',
        '&searchTerm=müll',
        '&searchTerm=universit',
        // Parts of booking numbers (R-2, R-20 to ...), with tickets without personal
        // data among them, and names that could be such parts too.
        '&searchTerm=R-2',
        '&searchTerm=bauer',
        '&searchTerm=ANNA',
      ])
        for (const [limit, offset] of [
          [20, 0],
          [7, 13],
          [50, 30],
          [999, 0],
          [10, 400],
          // Pages across the end of the part that comes first (ASC: about 50 tickets without a
          // name; DESC: about 250 with one), which is counted only up to a page's end.
          [9, 38],
          [13, 47],
          [17, 236],
        ]) {
          const q = `limit=${limit}&offset=${offset}${filter}`;
          const fast = await page(`sort=name:${dir}&${q}`);
          const generic = await page(`sort=name:${dir},date:ASC&${q}`);
          expect(fast).toEqual(generic);
          if (dir === 'ASC' && !filter) expect(await page(q)).toEqual(generic);
          compared += fast.content.length;
        }
    expect(compared).toBeGreaterThan(500);
    const all = await page('status=ALL&limit=999');
    expect(all.totalCount).toBeGreaterThan(200);
  });
});
