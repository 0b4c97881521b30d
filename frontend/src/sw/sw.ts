/**
 * The visitor app's service worker (built to dist/sw.js by vite-plugin-pwa, registered by the
 * visitor interface): the installable app's shell, offline, and "my tickets" as last read
 * online (docs/product.md#installable-app). Each concern is a module of its own; this file only
 * wires their handlers to the worker's events.
 */
import { answerOfflineReads, saveOpenBookings } from './offline-tickets.ts';
import { answerFromShell, cacheShell, dropOldShells } from './shell.ts';

declare const self: ServiceWorkerGlobalScope;

self.addEventListener('install', (event) => {
  // A new release's worker takes over at once: its shell is complete when it is installed.
  event.waitUntil(cacheShell().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  // Controls the pages already open and saves the tickets they show, so a booking opened once
  // is shown offline, even when that was the visit that installed the worker.
  event.waitUntil(
    dropOldShells()
      .then(() => self.clients.claim())
      // Saving is a favour: a failed read leaves the worker as active as it is.
      .then(() => saveOpenBookings().catch(() => undefined)),
  );
});

self.addEventListener('fetch', (event) => {
  const answer = answerFromShell(event.request) ?? answerOfflineReads(event.request);
  // Any other request goes to the network as if there were no worker.
  if (answer) event.respondWith(answer);
});

// Push messages: the handlers of ./push.ts (handlePush, handleNotificationClick) are wired here,
// beside the others, as `self.addEventListener('push', …)` and `'notificationclick'`.
