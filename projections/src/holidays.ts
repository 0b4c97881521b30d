import type { HolidayEvent, RecordedEvent } from '@rr/events';
import type { PoolClient } from '@rr/platform';
import type { Projection } from './projection.ts';

export const holidaysProjection: Projection = {
  name: 'holidays',
  derivedOnly: true,
  tables: ['rm_holidays'],
  handles: new Set(['HolidayCreated', 'HolidayUpdated', 'HolidayDeleted']),
  async apply(client: PoolClient, event: RecordedEvent): Promise<void> {
    const e = event as unknown as HolidayEvent;
    switch (e.type) {
      case 'HolidayCreated':
        await client.query(
          'INSERT INTO rm_holidays (id, version, name, description, date) VALUES ($1, 1, $2, $3, $4) ON CONFLICT (id) DO NOTHING',
          [e.data.holidayId, e.data.name, e.data.description ?? null, e.data.date],
        );
        return;
      case 'HolidayUpdated':
        await client.query(
          'UPDATE rm_holidays SET version = version + 1, name = $2, description = $3, date = $4 WHERE id = $1',
          [e.data.holidayId, e.data.name, e.data.description ?? null, e.data.date],
        );
        return;
      case 'HolidayDeleted':
        await client.query('DELETE FROM rm_holidays WHERE id = $1', [e.data.holidayId]);
        return;
    }
  },
};
