/**
 * The visitor app's service worker (built to dist/sw.js by vite-plugin-pwa, registered by the
 * visitor interface): the installable app's shell, offline, and "my tickets" as last read
 * online (docs/product.md#installable-app). Each concern is a module of its own; this file only
 * wires their handlers to the worker's events.
 */
import { answerOfflineReads } from './offline-tickets.ts';
import { answerFromShell, cacheShell, dropOldShells } from './shell.ts';

declare const self: ServiceWorkerGlobalScope;

self.addEventListener('install', (event) => {
  // A new release's worker takes over at once: its shell is complete when it is installed.
  event.waitUntil(cacheShell().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  // Controls the pages already open, so a page opened once is served offline without a reload.
  event.waitUntil(dropOldShells().then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const answer = answerFromShell(event.request) ?? answerOfflineReads(event.request);
  // Any other request goes to the network as if there were no worker.
  if (answer) event.respondWith(answer);
});

// Push messages: the handlers of ./push.ts (handlePush, handleNotificationClick) are wired here,
// beside the others, as `self.addEventListener('push', …)` and `'notificationclick'`.
