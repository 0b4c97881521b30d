/**
 * The names of the caches the service worker (src/sw/) keeps and the visitor app reads: shared
 * by both, so the offline notice finds what the worker saved (docs/product.md#installable-app).
 */

/** The visitor app's shell of one release; the release's hash follows the prefix. */
export const SHELL_CACHE_PREFIX = 'rr-shell-';

/**
 * A booking's tickets and their check-in QR codes as last read online: personal data on the
 * device, dropped when the server answers that the booking is gone (404).
 */
export const TICKETS_CACHE = 'rr-tickets';

/** The library's settings (its time zone), so times read offline are the library's. */
export const SETTINGS_CACHE = 'rr-settings';

/**
 * The header the worker adds to a saved answer it gives because the network failed: the page
 * then says the tickets are the saved ones even where the browser believes it is online (a
 * network that connects but reaches nothing).
 */
export const SAVED_ANSWER_HEADER = 'X-Saved-Answer';
