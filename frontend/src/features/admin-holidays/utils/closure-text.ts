import type { ClosurePreview, ClosureResult } from '../../../api/types';
import type { TFunction } from '../../../i18n/translator';

/**
 * The closure's counts in words: each count with its own plural form (`1 Reservierung`,
 * `3 Reservierungen`), then put into the sentence. `t` is the admin-holidays namespace's.
 */
export function closureCountsText(t: TFunction, preview: ClosurePreview): string {
  return t('closure.counts', {
    slots: t('closure.slot-count', { count: preview.slots }),
    open: preview.slots - preview.closed,
    bookings: t('closure.ticket-count', { count: preview.bookings }),
    waiting: t('closure.waiting-count', { count: preview.waiting }),
  });
}

/** What a closure did: the slots it closed and the reservations it cancelled. */
export function closureResultText(t: TFunction, result: ClosureResult): string {
  return t('closure.result', {
    slots: t('closure.slot-count', { count: result.closedSlots }),
    tickets: t('closure.ticket-count', { count: result.cancelledTickets }),
  });
}
