import { describe, expect, it } from 'vitest';
import { addDays } from '../calendar.ts';
import {
  BlacklistEntryAdded,
  BlacklistEntryRemoved,
  type BlacklistEvent,
} from '@rr/events/catalogue';
import { history, scenario } from '../testing/given-when-then.ts';
import {
  blocks,
  decideBlacklist,
  evolveBlacklist,
  initialBlacklistState,
} from './blacklist-entry.ts';

/** The library's day the decisions are made on; the entries expire relative to it. */
const TODAY = new Date('2026-11-23T09:00:00Z').toISOString().slice(0, 10);
const entryKey = 'c'.repeat(40);
const inAYear = addDays(TODAY, 365);

const added = (expiredAt = inAYear, description?: string) =>
  BlacklistEntryAdded.create({ entryKey, expiredAt, description });
const removed = BlacklistEntryRemoved.create({ entryKey });
const entry = (...events: BlacklistEvent[]) =>
  history(evolveBlacklist, initialBlacklistState, ...events);

const blacklist = scenario(decideBlacklist, {});

describe('AddEntry', () => {
  it('adds an address that is not on the list', () => {
    blacklist
      .given(initialBlacklistState)
      .when({ type: 'AddEntry', data: { entryKey, expiredAt: inAYear, description: 'Spam' } })
      .then([BlacklistEntryAdded.create({ entryKey, expiredAt: inAYear, description: 'Spam' })]);
  });

  it('refuses an address that is on the list', () => {
    blacklist
      .given(entry(added()))
      .when({ type: 'AddEntry', data: { entryKey, expiredAt: inAYear } })
      .thenRefused('blacklist__email_already_exists');
  });

  it('adds an address again once its entry was removed', () => {
    blacklist
      .given(entry(added(), removed))
      .when({ type: 'AddEntry', data: { entryKey, expiredAt: inAYear } })
      .then([BlacklistEntryAdded.create({ entryKey, expiredAt: inAYear })]);
  });
});

describe('ChangeEntry', () => {
  it('is a removal followed by an addition, appended together', () => {
    const expiredAt = addDays(TODAY, 30);
    blacklist
      .given(entry(added()))
      .when({ type: 'ChangeEntry', data: { entryKey, expiredAt, description: 'Changed' } })
      .then([
        BlacklistEntryRemoved.create({ entryKey }),
        BlacklistEntryAdded.create({ entryKey, expiredAt, description: 'Changed' }),
      ]);
  });

  it('refuses an address that is not on the list (never added, or removed)', () => {
    for (const state of [initialBlacklistState, entry(added(), removed)])
      blacklist
        .given(state)
        .when({ type: 'ChangeEntry', data: { entryKey, expiredAt: inAYear } })
        .thenRefused('not_found');
  });
});

describe('RemoveEntry', () => {
  it('removes an address on the list', () => {
    blacklist
      .given(entry(added()))
      .when({ type: 'RemoveEntry', data: { entryKey } })
      .then([BlacklistEntryRemoved.create({ entryKey })]);
  });

  it('refuses an address that is not on the list (never added, or removed)', () => {
    for (const state of [initialBlacklistState, entry(added(), removed)])
      blacklist
        .given(state)
        .when({ type: 'RemoveEntry', data: { entryKey } })
        .thenRefused('not_found');
  });
});

describe('the entry state', () => {
  it('counts every event as a version and keeps the expiry of the last addition', () => {
    const later = addDays(TODAY, 10);
    const state = entry(added(), removed, added(later));
    expect(state).toEqual({ version: 3, active: true, expiredAt: later });
    expect(entry(added(), removed)).toEqual({ version: 2, active: false, expiredAt: null });
  });
});

describe('blocks', () => {
  it('blocks bookings until its expiry date, that day included', () => {
    const state = entry(added(addDays(TODAY, 3)));
    expect(blocks(state, TODAY)).toBe(true);
    expect(blocks(state, addDays(TODAY, 3))).toBe(true);
    expect(blocks(state, addDays(TODAY, 4))).toBe(false);
  });

  it('does not block once expired, removed, or never added', () => {
    expect(blocks(entry(added(addDays(TODAY, -1))), TODAY)).toBe(false);
    expect(blocks(entry(added(), removed), TODAY)).toBe(false);
    expect(blocks(initialBlacklistState, TODAY)).toBe(false);
  });

  it('blocks by the changed expiry after a change', () => {
    const shortened = entry(added(inAYear), removed, added(addDays(TODAY, -1)));
    expect(blocks(shortened, TODAY)).toBe(false);
    const extended = entry(added(addDays(TODAY, -1)), removed, added(inAYear));
    expect(blocks(extended, TODAY)).toBe(true);
  });
});
