/**
 * docs/product.md#staff-screens: what happened to a ticket or a time slot, as the history API
 * names it (`what`) and the staff app labels it. Every event a history can show maps to one of
 * these (query-service/src/staff-history.ts), so no event's name reaches a screen.
 */
export const HISTORY_WHATS = [
  'held',
  'hold-extended',
  'released',
  'expired',
  'booked',
  'cancelled',
  'moved',
  'owner-changed',
  'personal-data-erased',
  'slot-created',
  'slot-changed',
  'capacity-changed',
  'slot-deleted',
  'slot-closed',
  'checked-in',
  'check-in-undone',
  'seat-changed',
  'no-show-released',
  'confirmed',
  'confirmation-lapsed',
  'waitlist-joined',
  'seat-offered',
  'seat-offer-lapsed',
  'seat-offer-taken',
  'waitlist-left',
  'waitlist-entry-removed',
  'waitlist-entry-passed-over',
  'waitlist-entry-back-in-line',
  'waitlist-entry-erased',
  'cart-started',
  'added-to-cart',
  'removed-from-cart',
  'cart-touched',
  'cart-booked',
  'cart-removed',
  'cart-expired',
] as const;
export type HistoryWhat = (typeof HISTORY_WHATS)[number];
