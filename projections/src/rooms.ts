import type { RecordedEvent, RoomEvent } from '@rr/events';
import type { PoolClient } from '@rr/platform';
import type { Projection } from './projection.ts';

type Data<T extends RoomEvent['type']> = Extract<RoomEvent, { type: T }>['data'];

export const roomsProjection: Projection = {
  name: 'rooms',
  derivedOnly: true,
  tables: ['rm_rooms'],
  handles: new Set([
    'RoomCreated',
    'RoomUpdated',
    'RoomDeleted',
    'RoomImageSet',
    'RoomImageAltChanged',
    'RoomImageRemoved',
    'RoomServicesChanged',
    'RoomOrderChanged',
  ]),
  async apply(client: PoolClient, event: RecordedEvent): Promise<void> {
    const v = event.streamVersion;
    switch (event.type) {
      case 'RoomCreated': {
        const d = event.data as Data<'RoomCreated'>;
        await client.query(
          `INSERT INTO rm_rooms (id, version, name, description, capacity, open_start_type, open_start_value,
             open_end_type, open_end_value, sort_order, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, (SELECT coalesce(max(sort_order) + 1, 0) FROM rm_rooms), $10)
           ON CONFLICT (id) DO NOTHING`,
          [
            d.roomId,
            v,
            d.name,
            d.description,
            d.capacity,
            d.openStart.type,
            d.openStart.value,
            d.openEnd.type,
            d.openEnd.value,
            event.createdAt,
          ],
        );
        return;
      }
      case 'RoomUpdated': {
        const d = event.data as Data<'RoomUpdated'>;
        await client.query(
          `UPDATE rm_rooms SET version = $2, name = $3, description = $4, capacity = $5, open_start_type = $6,
             open_start_value = $7, open_end_type = $8, open_end_value = $9 WHERE id = $1`,
          [
            d.roomId,
            v,
            d.name,
            d.description,
            d.capacity,
            d.openStart.type,
            d.openStart.value,
            d.openEnd.type,
            d.openEnd.value,
          ],
        );
        return;
      }
      case 'RoomDeleted':
        await client.query('DELETE FROM rm_rooms WHERE id = $1', [
          (event.data as Data<'RoomDeleted'>).roomId,
        ]);
        return;
      case 'RoomImageSet': {
        const d = event.data as Data<'RoomImageSet'>;
        await client.query(
          'UPDATE rm_rooms SET version = $2, image_id = $3, image_alt = $4 WHERE id = $1',
          [d.roomId, v, d.imageId, d.alt],
        );
        return;
      }
      case 'RoomImageAltChanged': {
        const d = event.data as Data<'RoomImageAltChanged'>;
        await client.query('UPDATE rm_rooms SET version = $2, image_alt = $3 WHERE id = $1', [
          d.roomId,
          v,
          d.alt,
        ]);
        return;
      }
      case 'RoomImageRemoved': {
        const d = event.data as Data<'RoomImageRemoved'>;
        await client.query(
          'UPDATE rm_rooms SET version = $2, image_id = NULL, image_alt = NULL WHERE id = $1',
          [d.roomId, v],
        );
        return;
      }
      case 'RoomServicesChanged': {
        const { roomId, ...services } = event.data as Data<'RoomServicesChanged'>;
        await client.query('UPDATE rm_rooms SET version = $2, services = $3 WHERE id = $1', [
          roomId,
          v,
          services,
        ]);
        return;
      }
      case 'RoomOrderChanged': {
        const ids = (event.data as { roomIds: string[] }).roomIds;
        // Listed rooms take their index; rooms created meanwhile keep their relative order after them.
        await client.query(
          `WITH listed AS (SELECT id, (idx - 1)::int AS pos FROM unnest($1::uuid[]) WITH ORDINALITY AS o(id, idx)),
                others AS (SELECT r.id, (cardinality($1::uuid[]) + row_number() OVER (ORDER BY r.sort_order, r.name, r.id) - 1)::int AS pos
                             FROM rm_rooms r WHERE r.id <> ALL($1::uuid[]))
           UPDATE rm_rooms r SET sort_order = x.pos FROM (SELECT * FROM listed UNION ALL SELECT * FROM others) x WHERE r.id = x.id`,
          [ids],
        );
        return;
      }
    }
  },
};
