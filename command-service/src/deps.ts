import type { EventStore, Actor } from '@rr/events';
import type { Clock, Logger, Pool, SessionUser } from '@rr/platform';

export interface CommandDeps {
  store: EventStore;
  pool: Pool;
  clock: Clock;
  logger: Logger;
}

export function actorOf(user: SessionUser | undefined): Actor {
  return user ? { kind: 'admin', username: user.username } : { kind: 'visitor' };
}
