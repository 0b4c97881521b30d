import { randomUUID } from 'node:crypto';
import { RoomCreated, roomStreamId, type EventStore } from '@rr/events';

const demoRooms = [
  {
    name: 'Großer Lesesaal',
    description: 'Main reading room with 60 desks, daylight and quiet study',
    capacity: 60,
  },
  {
    name: 'Rara-Lesesaal',
    description: 'Rare books and manuscripts, supervised reading',
    capacity: 12,
  },
  {
    name: 'Zeitschriftenraum',
    description: 'Current journals and newspapers, laptop-friendly desks',
    capacity: 24,
  },
];

/** Seeds demo rooms into an empty event store (a fresh `npm start`). */
export async function seedDemoData(store: EventStore): Promise<boolean> {
  const r = await store.pool.query('SELECT 1 FROM streams LIMIT 1');
  if (r.rowCount) return false;
  for (const room of demoRooms) {
    const roomId = randomUUID();
    await store.appendToStream(
      roomStreamId(roomId),
      'room',
      'no_stream',
      [
        RoomCreated.create({
          roomId,
          ...room,
          openStart: { type: 'DAY', value: 2 },
          openEnd: { type: 'WORKING_DAY', value: 30 },
        }),
      ],
      { metadata: { actor: { kind: 'system', job: 'demo-seed' } } },
    );
  }
  return true;
}
