import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../tests/support/db.ts';
import { eraseEntryRows, recordEntry } from './entries.ts';

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

describe("a waitlist entry's row", () => {
  it('goes the day after its slot, also after the last date there is (9999-12-31)', async () => {
    const client = await db.pool.connect();
    try {
      const entries = ['2030-03-01', '9999-12-31'].map((slotDate) => ({
        entryId: randomUUID(),
        timeSlotId: randomUUID(),
        visitorKey: 'key',
        subjectKey: null,
        email: 'wanda@example.at',
        language: 'de' as const,
        slotDate,
      }));
      for (const e of entries) await recordEntry({ client }, e);
      const { rows } = await client.query<{ erase_after: string }>(
        'SELECT erase_after::text FROM waitlist_entries WHERE entry_id = ANY($1::uuid[]) ORDER BY 1',
        [entries.map((e) => e.entryId)],
      );
      expect(rows.map((r) => r.erase_after)).toEqual(['10000-01-01', '2030-03-02']);
      const ids = entries.map((e) => e.entryId);
      expect(await eraseEntryRows({ client }, ids, '2030-03-01')).toEqual([]);
      expect(await eraseEntryRows({ client }, ids, '2030-03-02')).toEqual([entries[0]!.entryId]);
    } finally {
      client.release();
    }
  });
});
