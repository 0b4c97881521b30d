import { describe, expect, it } from 'vitest';
import type { Page, Ticket } from '../../../api/types';
import { loadAllTickets, PRINT_CHUNK } from './print-all';
import type { TicketQuery } from './reservation-list';

const ticket = (n: number) => ({ id: String(n) }) as Ticket;

describe('loadAllTickets (print prints every matching row)', () => {
  it('reads page after page until every row of the total is there', async () => {
    const total = PRINT_CHUNK * 2 + 5;
    const asked: TicketQuery[] = [];
    const rows = await loadAllTickets(
      { status: 'CANCELED_ONLY', sort: 'name:ASC', limit: 20, offset: 40 },
      (query): Promise<Page<Ticket>> => {
        asked.push(query);
        const offset = query.offset ?? 0;
        const count = Math.max(0, Math.min(PRINT_CHUNK, total - offset));
        return Promise.resolve({
          content: Array.from({ length: count }, (_, i) => ticket(offset + i)),
          totalCount: total,
        });
      },
    );
    expect(rows).toHaveLength(total);
    expect(asked.map((q) => [q.limit, q.offset])).toEqual([
      [PRINT_CHUNK, 0],
      [PRINT_CHUNK, PRINT_CHUNK],
      [PRINT_CHUNK, PRINT_CHUNK * 2],
    ]);
    expect(asked[0]!.status).toBe('CANCELED_ONLY');
  });

  it('asks once for a short list', async () => {
    let calls = 0;
    const rows = await loadAllTickets({ sort: 'name:ASC', limit: 20, offset: 0 }, () => {
      calls += 1;
      return Promise.resolve({ content: [ticket(1), ticket(2)], totalCount: 2 });
    });
    expect(rows).toHaveLength(2);
    expect(calls).toBe(1);
  });
});
