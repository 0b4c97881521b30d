/**
 * A process that writes through commit groups until it is killed (events/src/commit-group.int.test.ts):
 * CLIENTS writers each append one event to a new stream, again and again, and the id of each
 * stream is printed as soon as its command is answered. The test kills it with SIGKILL and looks
 * for every printed stream in the log.
 */
import { randomUUID } from 'node:crypto';
import {
  CommitGroups,
  EventStore,
  RoomCreated,
  validateEvent,
  type AppendRequest,
} from '@rr/events';
import { createPool } from '@rr/platform';
import { roomDetails } from './room-events.ts';

const [url, clients = '32'] = process.argv.slice(2);
if (!url) throw new Error('usage: commit-group-child <database url> [clients]');
const pool = createPool(url, 8);
const store = new EventStore(pool, { validate: validateEvent });
const groups = new CommitGroups<{ appends: AppendRequest[] }>(
  store,
  async (s, parts) => {
    await s.sendAppend(
      parts.flatMap((p) => p.appends),
      { metadata: { actor: { kind: 'system', job: 'commit-group-child' } } },
    );
  },
  { maxMembers: 16, maxGroups: 2 },
);

async function writer(): Promise<never> {
  for (;;) {
    const roomId = randomUUID();
    const streamId = `room-${roomId}`;
    await groups.run(async (s) => {
      await s.lockAndReadStreams([streamId]);
      return {
        appends: [
          {
            streamId,
            streamType: 'room',
            expectedVersion: 'no_stream',
            events: [RoomCreated.create(roomDetails(roomId, 'Killed mid-group'))],
          },
        ],
      };
    });
    process.stdout.write(`${streamId}\n`);
  }
}

await Promise.all(Array.from({ length: Number(clients) }, () => writer()));
