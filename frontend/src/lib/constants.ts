/**
 * Business constants of docs/product.md#limits used by more than one feature. The booking limits (cart
 * size and hold, per-day and per-visitor maxima) are the server's configuration: `GET settings`
 * (`useGetSettingsQuery`, read by the booking context).
 */
export const MAX_ROOMS = 999;
export const PAGING_SIZE = 20;

/**
 * How often the app sends a request again: after shed load (503 with `Retry-After`), or when a
 * read of its own write came back stale and empty (404 with `X-Read-Stale`).
 */
export const ASK_AGAIN = 3;
