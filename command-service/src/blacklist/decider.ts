import type { BlacklistEvent, NewEvent } from '@rr/events';
import { BlacklistEntryAdded, BlacklistEntryRemoved } from '@rr/events';
import { Problem, problems } from '@rr/platform';

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
export function decideBlacklist(command: BlacklistCommand, state: BlacklistState): NewEvent[] {
  switch (command.type) {
    case 'AddEntry':
      if (state.active)
        throw new Problem(
          409,
          'blacklist__email_already_exists',
          'This e-mail address is on the blacklist already',
        );
      return [BlacklistEntryAdded.create(command.data)];
    case 'ChangeEntry':
      if (!state.active) throw problems.notFound('Blacklist entry');
      return [
        BlacklistEntryRemoved.create({ entryKey: command.data.entryKey }),
        BlacklistEntryAdded.create(command.data),
      ];
    case 'RemoveEntry':
      if (!state.active) throw problems.notFound('Blacklist entry');
      return [BlacklistEntryRemoved.create(command.data)];
  }
}
