import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { ManualClock } from '@rr/platform';
import { addUser, Client, startTestApp, type TestApp } from '../support/app.ts';

const dir =
  process.env.SHARED_ICAL_DIR ??
  path.resolve(import.meta.dirname, '..', '..', '..', 'shared', 'fixtures', 'ical');

let db: TestDatabase;
let app: TestApp;
let admin: Client;

function upload(file: string): FormData {
  const f = new FormData();
  f.append('file', new Blob([readFileSync(path.join(dir, file))], { type: 'text/calendar' }), file);
  return f;
}
const holidays = async (from: string, until: string) =>
  (
    (await (
      await admin.get(`/api/admin/holidays?fromDate=${from}&untilDate=${until}&limit=999`)
    ).json()) as { content: { date: string; name: string }[] }
  ).content;

beforeAll(async () => {
  db = await createTestDatabase();
  // The files cover 2024-2031: a clock in 2026 and an import window from two years back takes
  // them whole, on any real date.
  app = await startTestApp(db, new ManualClock(new Date('2026-06-01T10:00:00Z')), {
    env: { HOLIDAY_IMPORT_YEARS_BACK: '2' },
  });
  await addUser(db, 'boss', 'correct horse', ['admin']);
  admin = new Client(app.baseUrl);
  await admin.login('boss', 'correct horse');
});
afterAll(async () => {
  await app.close();
  await db.drop();
});

describe('real-world calendars from ../shared/fixtures/ical', () => {
  it('imports the Austrian public holidays 2024-2030, once', async () => {
    const r = await admin.request('POST', '/api/admin/holidays/ical', {
      form: upload('austrian_holidays.ics'),
    });
    expect(r.status).toBe(200);
    const first = (await r.json()) as { imported: number; skipped: number };
    expect(first.imported).toBe(91);
    const y2026 = await holidays('2026-01-01', '2026-12-31');
    expect(y2026.map((h) => h.date)).toContain('2026-10-26');
    expect(y2026.map((h) => h.date)).toContain('2026-12-08');
    expect(y2026.find((h) => h.date === '2026-01-01')?.name).toBe('Neujahr');
    const again = (await (
      await admin.request('POST', '/api/admin/holidays/ical', {
        form: upload('austrian_holidays.ics'),
      })
    ).json()) as { imported: number; skipped: number };
    expect(again).toMatchObject({ imported: 0, skipped: 91 });
  });

  it('expands the multi-day Vienna school holidays into one holiday per day', async () => {
    const r = await admin.request('POST', '/api/admin/holidays/ical', {
      form: upload('school_holidays_wien.ics'),
    });
    const result = (await r.json()) as { imported: number };
    expect(result.imported).toBeGreaterThan(42);
    // Semesterferien 2025: DTSTART 2025-02-03, DTEND 2025-02-10 (exclusive) = 7 days.
    const semester = (await holidays('2025-02-01', '2025-02-12')).filter(
      (h) => h.name === 'Semesterferien',
    );
    expect(semester.map((h) => h.date)).toEqual([
      '2025-02-03',
      '2025-02-04',
      '2025-02-05',
      '2025-02-06',
      '2025-02-07',
      '2025-02-08',
      '2025-02-09',
    ]);
  });
});
