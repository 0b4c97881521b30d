/**
 * Business constants of docs/product.md#limits used by more than one feature. The booking limits (cart
 * size and hold, per-day and per-visitor maxima) are the server's configuration: `GET settings`
 * (`useGetSettingsQuery`, read by the booking context).
 */
export const MAX_ROOMS = 999;
export const PAGING_SIZE = 20;
