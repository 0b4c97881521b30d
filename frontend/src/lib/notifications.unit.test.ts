import { describe, expect, it } from 'vitest';
import { visibleNotifications, type AppNotification } from './notifications';

const at = (id: string, date: number): AppNotification => ({ id, date, type: 'info', title: id });

describe('visibleNotifications', () => {
  it('shows only entries younger than ten seconds, newest first', () => {
    const now = 100_000;
    const items = [at('old', now - 10_000), at('a', now - 9_999), at('b', now - 1), at('c', now)];
    expect(visibleNotifications(items, now).map((n) => n.id)).toEqual(['c', 'b', 'a']);
  });

  it('keeps an entry created slightly after the last tick', () => {
    expect(visibleNotifications([at('new', 5_500)], 5_000).map((n) => n.id)).toEqual(['new']);
  });

  it('honours a custom maximum age', () => {
    expect(visibleNotifications([at('x', 0)], 2_000, 1_000)).toEqual([]);
  });
});
