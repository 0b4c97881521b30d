import { evolveHoliday, type Holiday } from '@rr/domain';
import { handlersFor, holidaysStream, type HolidayEvent, type NewEvent } from '@rr/events';
import { holidaysById } from '../holidays/state.ts';
import { inlineProjection, type InlineFold, type InlineTransaction } from './define.ts';

interface HolidayFold extends InlineFold {
  changes: HolidayEvent[];
}

const change = (e: HolidayEvent, f: HolidayFold) => void f.changes.push(e);

/** `holiday_state`: each holiday (evolveHoliday). */
export const holidayStateProjection = inlineProjection({
  table: 'holiday_state',
  handlers: handlersFor(holidaysStream).with<HolidayFold, void, NewEvent>({
    HolidayCreated: change,
    HolidayUpdated: change,
    HolidayDeleted: change,
  }),
  start: (): HolidayFold => ({ streamId: '', changes: [] }),
  write: (tx, f) => recordHolidays(tx, f.changes),
});

async function recordHolidays(
  tx: InlineTransaction,
  changes: readonly HolidayEvent[],
): Promise<void> {
  const ids = [...new Set(changes.map((e) => e.data.holidayId))];
  const creates = changes.every((e) => e.type === 'HolidayCreated');
  const state = creates ? new Map<string, Holiday>() : await holidaysById(tx.client, ids);
  const gone: string[] = [];
  for (const event of changes) {
    const next = evolveHoliday(state.get(event.data.holidayId), event);
    if (next) state.set(next.id, next);
    else {
      state.delete(event.data.holidayId);
      gone.push(event.data.holidayId);
    }
  }
  if (gone.length)
    await tx.send('DELETE FROM holiday_state WHERE holiday_id = ANY($1::uuid[])', [gone]);
  const rows = [...state.values()];
  if (rows.length)
    await tx.send(
      `INSERT INTO holiday_state (holiday_id, date, name, description, version, site_id)
       SELECT * FROM unnest($1::uuid[], $2::date[], $3::text[], $4::text[], $5::int[], $6::uuid[])
       ON CONFLICT (holiday_id) DO UPDATE SET date = excluded.date, name = excluded.name,
         description = excluded.description, version = excluded.version, site_id = excluded.site_id`,
      [
        rows.map((h) => h.id),
        rows.map((h) => h.date),
        rows.map((h) => h.name),
        rows.map((h) => h.description ?? null),
        rows.map((h) => h.version),
        rows.map((h) => h.siteId ?? null),
      ],
    );
}
