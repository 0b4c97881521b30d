import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../../api/types';
import de from '../../../i18n/staff.de.json';
import en from '../../../i18n/staff.en.json';
import {
  actorLabel,
  formatTimestamp,
  HISTORY_JOBS,
  HISTORY_WHATS,
  groupHistory,
  sortHistory,
  whatLabel,
} from './history';

const entry = (at: string, what: string, event = 'X'): HistoryEntry => ({
  at,
  event,
  what,
  actor: { kind: 'visitor' },
});

describe('history labels', () => {
  it('translates every known what', () => {
    for (const what of HISTORY_WHATS) {
      expect(whatLabel(entry('2026-01-01T00:00:00Z', what))).toEqual({ key: `what.${what}` });
    }
  });

  it('names the slot a rebooking moved the ticket to', () => {
    expect(
      whatLabel({
        ...entry('2026-01-01T00:00:00Z', 'moved', 'TicketCancelled'),
        movedTo: { date: '2026-12-08', startTime: '10:00', endTime: '11:00' },
      }),
    ).toEqual({ key: 'what.moved-to', params: { slot: '08.12.2026, 10:00-11:00' } });
  });

  it('names the seat a hold took and a seat change gave, in a room with a seat plan', () => {
    expect(whatLabel({ ...entry('2026-01-01T00:00:00Z', 'held'), seat: 'A12' })).toEqual({
      key: 'what.held-seat',
      params: { seat: 'A12' },
    });
    expect(whatLabel({ ...entry('2026-01-01T00:00:00Z', 'seat-changed'), seat: 'B3' })).toEqual({
      key: 'what.seat-changed-seat',
      params: { seat: 'B3' },
    });
  });

  it('says "other event" for an unknown what, never its name', () => {
    expect(whatLabel(entry('2026-01-01T00:00:00Z', 'SomethingNew', 'SomethingNew'))).toEqual({
      key: 'what.other',
    });
  });

  it('names the visitor, the administrator and the system job', () => {
    expect(actorLabel({ kind: 'visitor' })).toEqual({ key: 'actor.visitor' });
    expect(actorLabel({ kind: 'admin', username: 'admin' })).toEqual({
      key: 'actor.admin',
      params: { username: 'admin' },
    });
    expect(actorLabel({ kind: 'admin' })).toEqual({ key: 'actor.admin-unknown' });
    expect(actorLabel({ kind: 'api-token', tokenId: 'a1', name: 'Door counter' })).toEqual({
      key: 'actor.api-token',
      params: { name: 'Door counter' },
    });
    expect(actorLabel({ kind: 'api-token' })).toEqual({ key: 'actor.api-token-unknown' });
    expect(actorLabel({ kind: 'system', job: 'cart-expiry' })).toEqual({
      key: 'actor.jobs.cart-expiry',
    });
    expect(actorLabel({ kind: 'system', job: 'no-show-release' })).toEqual({
      key: 'actor.jobs.no-show-release',
    });
    // A job or an actor kind this app does not know is not named by its code name.
    expect(actorLabel({ kind: 'system', job: 'nightly' })).toEqual({ key: 'actor.system' });
    expect(actorLabel({ kind: 'robot' })).toEqual({ key: 'actor.unknown' });
  });

  it.each([
    ['de', de],
    ['en', en],
  ])('%s has a text for every label', (_language, catalogue) => {
    const texts = catalogue['admin-history'] as unknown as {
      what: Record<string, string>;
      actor: Record<string, string> & { jobs: Record<string, string> };
    };
    for (const what of [...HISTORY_WHATS, 'other']) expect(texts.what[what]).toBeTruthy();
    for (const job of HISTORY_JOBS) expect(texts.actor.jobs[job]).toBeTruthy();
    for (const key of [
      'visitor',
      'admin',
      'admin-unknown',
      'api-token',
      'api-token-unknown',
      'system',
      'unknown',
    ]) {
      expect(texts.actor[key]).toBeTruthy();
    }
  });
});

describe('formatTimestamp', () => {
  it('shows dd.MM.yyyy HH:mm in Vienna time (winter and summer time)', () => {
    expect(formatTimestamp('2026-01-15T07:05:00.000Z')).toBe('15.01.2026 08:05');
    expect(formatTimestamp('2026-07-01T22:30:00Z')).toBe('02.07.2026 00:30');
    expect(formatTimestamp('2026-07-01T22:30:00Z', 'UTC')).toBe('01.07.2026 22:30');
  });

  it('returns an unreadable value unchanged', () => {
    expect(formatTimestamp('yesterday')).toBe('yesterday');
  });
});

describe('sortHistory', () => {
  it('orders by time and keeps the server order of the same instant', () => {
    const a = entry('2026-01-01T10:00:00Z', 'held');
    const b = entry('2026-01-01T10:00:00Z', 'booked');
    const c = entry('2026-01-01T09:00:00Z', 'slot-created');
    expect(sortHistory([a, b, c])).toEqual([c, a, b]);
  });
});

describe('groupHistory (repeated events as one row)', () => {
  const visitor = { kind: 'visitor' };
  const entry = (at: string, what: string, actor: HistoryEntry['actor'] = visitor) => ({
    at,
    what,
    event: what,
    actor,
  });

  it('folds consecutive events of one kind by one actor, with count, first and last', () => {
    const extended = [1, 2, 3, 4, 5, 6, 7].map((m) =>
      entry(`2026-06-01T08:0${m}:00Z`, 'hold-extended'),
    );
    const groups = groupHistory([
      entry('2026-06-01T08:00:00Z', 'held'),
      ...extended,
      entry('2026-06-01T08:09:00Z', 'booked'),
    ]);
    expect(groups.map((g) => [g.first.what, g.count, g.first.at, g.last.at])).toEqual([
      ['held', 1, '2026-06-01T08:00:00Z', '2026-06-01T08:00:00Z'],
      ['hold-extended', 7, '2026-06-01T08:01:00Z', '2026-06-01T08:07:00Z'],
      ['booked', 1, '2026-06-01T08:09:00Z', '2026-06-01T08:09:00Z'],
    ]);
  });

  it('keeps events of other actors, or not in a row, apart', () => {
    const admin = { kind: 'admin', username: 'admin' };
    const groups = groupHistory([
      entry('2026-06-01T08:00:00Z', 'owner-changed', admin),
      entry('2026-06-01T08:01:00Z', 'owner-changed', { kind: 'admin', username: 'other' }),
      entry('2026-06-01T08:02:00Z', 'cancelled', admin),
      entry('2026-06-01T08:03:00Z', 'owner-changed', admin),
    ]);
    expect(groups.map((g) => g.count)).toEqual([1, 1, 1, 1]);
  });
});
