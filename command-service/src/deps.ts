import type { EventStore, Actor } from '@rr/events';
import type { Clock, Logger, Pool, SessionUser } from '@rr/platform';

export interface CommandDeps {
  store: EventStore;
  pool: Pool;
  clock: Clock;
  logger: Logger;
  /** IANA zone of the library: what "today" means. */
  timeZone: string;
  /** HMAC key of a normalised e-mail address (see @rr/domain emailKey). */
  emailKey: (email: string) => string;
}

export function actorOf(user: SessionUser | undefined): Actor {
  return user ? { kind: 'admin', username: user.username } : { kind: 'visitor' };
}
