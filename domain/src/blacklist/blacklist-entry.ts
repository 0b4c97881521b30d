import {
  BlacklistEntryAdded,
  BlacklistEntryRemoved,
  type BlacklistEvent,
} from '@rr/events/catalogue';
import { type Decide, unhandled } from '../decider.ts';
import { refuse, Refused } from '../refusal.ts';

/** A blacklist entry: one stream per (keyed) e-mail address. */
export interface BlacklistState {
  version: number;
  active: boolean;
  expiredAt: string | null;
}

export const initialBlacklistState: BlacklistState = { version: 0, active: false, expiredAt: null };

export function evolveBlacklist(state: BlacklistState, event: BlacklistEvent): BlacklistState {
  const version = state.version + 1;
  switch (event.type) {
    case 'BlacklistEntryAdded':
      return { version, active: true, expiredAt: event.data.expiredAt };
    case 'BlacklistEntryRemoved':
      return { version, active: false, expiredAt: null };
  }
}

/** Whether the entry blocks bookings on a day: an entry stops blocking once its expiredAt has passed. */
export function blocks(state: BlacklistState, today: string): boolean {
  return state.active && state.expiredAt !== null && state.expiredAt >= today;
}

/**
 * A blocked address may neither book nor join a waitlist (docs/product.md#cart-rules): the refusal
 * of every decision that takes an address, and of the check when the visitor enters it.
 */
export function mustNotBeBlocked(state: BlacklistState, today: string): void {
  if (blocks(state, today))
    throw new Refused('booking__email_blacklisted', 'This e-mail address may not book');
}

export type BlacklistCommand =
  | {
      type: 'AddEntry';
      data: { entryKey: string; expiredAt: string; description?: string | undefined };
    }
  | {
      type: 'ChangeEntry';
      data: { entryKey: string; expiredAt: string; description?: string | undefined };
    }
  | { type: 'RemoveEntry'; data: { entryKey: string } };

/** Pure. An update is a removal followed by an addition, appended together. */
export const decideBlacklist: Decide<
  BlacklistCommand,
  BlacklistState,
  unknown,
  BlacklistEvent[]
> = (command, state) => {
  switch (command.type) {
    case 'AddEntry':
      if (state.active)
        throw new Refused(
          'blacklist__email_already_exists',
          'This e-mail address is on the blacklist already',
        );
      return [BlacklistEntryAdded.create(command.data)];
    case 'ChangeEntry':
      if (!state.active) throw refuse.notFound('Blacklist entry');
      return [
        BlacklistEntryRemoved.create({ entryKey: command.data.entryKey }),
        BlacklistEntryAdded.create(command.data),
      ];
    case 'RemoveEntry':
      if (!state.active) throw refuse.notFound('Blacklist entry');
      return [BlacklistEntryRemoved.create(command.data)];
    default:
      return unhandled(command);
  }
};
