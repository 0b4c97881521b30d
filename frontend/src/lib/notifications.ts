export type NotificationType = 'info' | 'success' | 'warning' | 'error';

export interface AppNotification {
  readonly id: string;
  /** Creation time in epoch milliseconds. */
  readonly date: number;
  readonly type: NotificationType;
  readonly title: string;
  readonly description?: string;
}

/** Info popups are shown for 10 seconds (docs/product.md#limits). */
export const NOTIFICATION_VISIBLE_MS = 10_000;

/** Entries younger than the maximum age at `now`, newest first. */
export function visibleNotifications(
  items: readonly AppNotification[],
  now: number,
  maxAgeMs: number = NOTIFICATION_VISIBLE_MS,
): AppNotification[] {
  return items.filter((item) => now - item.date < maxAgeMs).sort((a, b) => b.date - a.date);
}
