import {
  asStreamEvents,
  handlersFor,
  holidaysStream,
  type HolidayEvent,
  type RecordedEvent,
  appliedBy,
  type Projection,
  type Step,
} from '@rr/events';
import type { PoolClient } from '@rr/platform';

const holidays = handlersFor(holidaysStream).with<PoolClient, Step>({
  async HolidayCreated(e, client) {
    await client.query(
      `INSERT INTO rm_holidays (id, version, name, description, date, name_en, description_en, site_id)
       VALUES ($1, 1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
      [
        e.data.holidayId,
        e.data.name,
        e.data.description ?? null,
        e.data.date,
        e.data.nameEn ?? null,
        e.data.descriptionEn ?? null,
        e.data.siteId ?? null,
      ],
    );
  },
  async HolidayUpdated(e, client) {
    await client.query(
      `UPDATE rm_holidays SET version = version + 1, name = $2, description = $3, date = $4,
         name_en = $5, description_en = $6, site_id = $7 WHERE id = $1`,
      [
        e.data.holidayId,
        e.data.name,
        e.data.description ?? null,
        e.data.date,
        e.data.nameEn ?? null,
        e.data.descriptionEn ?? null,
        e.data.siteId ?? null,
      ],
    );
  },
  async HolidayDeleted(e, client) {
    await client.query('DELETE FROM rm_holidays WHERE id = $1', [e.data.holidayId]);
  },
});

export const holidaysProjection: Projection = {
  name: 'holidays',
  derivedOnly: true,
  tables: ['rm_holidays'],
  ...appliedBy(holidays),
  /**
   * An import appends hundreds of creations at once: a batch of only creations is one INSERT;
   * anything else goes event by event.
   */
  async applyBatch(client: PoolClient, events: RecordedEvent[]): Promise<void> {
    const batch = asStreamEvents<HolidayEvent>(events);
    const creations = batch.filter(
      (e): e is Extract<(typeof batch)[number], { type: 'HolidayCreated' }> =>
        e.type === 'HolidayCreated',
    );
    if (creations.length !== batch.length) {
      for (const event of events) await holidaysProjection.apply(client, event);
      return;
    }
    await client.query(
      `INSERT INTO rm_holidays (id, version, name, description, date, name_en, description_en, site_id)
       SELECT id, 1, name, description, date, name_en, description_en, site_id
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::date[], $5::text[], $6::text[], $7::uuid[])
           AS h(id, name, description, date, name_en, description_en, site_id)
       ON CONFLICT (id) DO NOTHING`,
      [
        creations.map((e) => e.data.holidayId),
        creations.map((e) => e.data.name),
        creations.map((e) => e.data.description ?? null),
        creations.map((e) => e.data.date),
        creations.map((e) => e.data.nameEn ?? null),
        creations.map((e) => e.data.descriptionEn ?? null),
        creations.map((e) => e.data.siteId ?? null),
      ],
    );
  },
};
