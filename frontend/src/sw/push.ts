/*
 * The service worker's part of reminders as notifications (docs/product.md#reminders): it shows
 * what the push job sent (`{ title, body, url }`, encrypted to this browser and decrypted by it)
 * and opens the booking's page on a click. The service worker imports these two functions:
 *
 *   self.addEventListener('push', (e) => handlePush(e));
 *   self.addEventListener('notificationclick', (e) => handleNotificationClick(e));
 *
 * The types are the few members used, so this file compiles beside the DOM's types.
 */

interface ExtendableEventLike {
  waitUntil(promise: Promise<unknown>): void;
}
export interface PushEventLike extends ExtendableEventLike {
  data: { json(): unknown } | null;
}
export interface NotificationClickEventLike extends ExtendableEventLike {
  notification: { close(): void; data: unknown };
}
interface WindowClientLike {
  url: string;
  focus(): Promise<unknown>;
}
/** What of the service worker's global scope the handlers use. */
export interface PushScope {
  location: { origin: string };
  registration: {
    showNotification(title: string, options?: NotificationOptions): Promise<void>;
  };
  clients: {
    matchAll(options: {
      type: 'window';
      includeUncontrolled: boolean;
    }): Promise<readonly WindowClientLike[]>;
    openWindow(url: string): Promise<unknown>;
  };
}

/** The service worker's global scope; the DOM's types call it a window. */
const workerScope = (): PushScope =>
  // The file is compiled with the DOM's lib, where `self` is a Window: in a service worker it is
  // the ServiceWorkerGlobalScope, which has every member PushScope names.
  globalThis as unknown as PushScope;

interface Reminder {
  title: string;
  body: string;
  url: string;
}

function reminderOf(data: PushEventLike['data']): Reminder | null {
  try {
    const value = data?.json() as Partial<Record<keyof Reminder, unknown>> | undefined;
    if (
      typeof value?.title === 'string' &&
      typeof value.body === 'string' &&
      typeof value.url === 'string'
    )
      return { title: value.title, body: value.body, url: value.url };
  } catch {
    // Not JSON: nothing of ours.
  }
  return null;
}

/** A link of this site only: anything else opens the site's start page. */
function ownUrl(url: unknown, origin: string): string {
  try {
    const parsed = new URL(String(url), origin);
    return parsed.origin === origin ? parsed.href : `${origin}/`;
  } catch {
    return `${origin}/`;
  }
}

/** Shows a reminder the push job sent. */
export function handlePush(event: PushEventLike, scope: PushScope = workerScope()): void {
  const reminder = reminderOf(event.data);
  if (!reminder) return;
  event.waitUntil(
    scope.registration.showNotification(reminder.title, {
      body: reminder.body,
      data: { url: ownUrl(reminder.url, scope.location.origin) },
      tag: reminder.url,
    }),
  );
}

/** Opens the reminded booking's page: a tab already showing it, or a new one. */
export function handleNotificationClick(
  event: NotificationClickEventLike,
  scope: PushScope = workerScope(),
): void {
  event.notification.close();
  const { url } = (event.notification.data ?? {}) as { url?: unknown };
  const target = ownUrl(url, scope.location.origin);
  event.waitUntil(
    scope.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((open) => {
      const tab = open.find((c) => c.url === target);
      return tab ? tab.focus() : scope.clients.openWindow(target);
    }),
  );
}
