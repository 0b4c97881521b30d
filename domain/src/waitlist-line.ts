import type { WaitlistEvent } from '@rr/events/catalogue';
import { limitsKeyOf } from './person-key.ts';

/**
 * The line of a full slot's waitlist (only in rooms with `waitlistOfferMinutes`). It is part of
 * the slot's state, folded from the slot's stream: an outstanding offer holds a seat exactly like
 * a cart's hold (seatsTakenApart counts it), so the slot lock serialises offers with carts. A leaf:
 * the seat counting and the slot's state read it, it reads nothing of the streams.
 */
export interface WaitlistEntry {
  entryId: string;
  visitorKey: string;
  /**
   * Whom the line's per-person rules count the entry for (limitsKeyOf): the signed-in visitor's
   * subject, or the address's key.
   */
  personKey: string;
  language: 'de' | 'en';
  joinedAt: string;
  /**
   * waiting → offered → taken (into a cart) or lapsed (not taken in time); left (by the visitor)
   * or removed (by staff) from waiting or offered.
   */
  status: 'waiting' | 'offered' | 'lapsed' | 'taken' | 'left' | 'removed';
  offerId: string | null;
  /** Until when an offer holds its seat (ISO); null unless offered. */
  offerExpiresAt: string | null;
  /** The seat of the room's plan the offer holds; absent: none (a room without a plan). */
  offerSeat?: { seatId: string; label: string } | undefined;
  /** Its address beside the log was erased (the day after the slot's day). */
  erased?: true;
  /**
   * While waiting: the matcher passed it over, the per-visitor limits barring it from a seat
   * (docs/product.md#waitlist). It keeps its place but claims no freed seat until an offer or
   * its return to the line (its limits allow it again) ends this.
   */
  passedOver?: true;
}

/** The entries in line order (the order of joining). */
export type Waitlist = readonly WaitlistEntry[];

function changeEntry(
  list: Waitlist,
  entryId: string,
  change: Partial<WaitlistEntry>,
): WaitlistEntry[] {
  return list.map((e) => (e.entryId === entryId ? { ...e, ...change } : e));
}

/** The slot's waitlist after one of its events. */
export function evolveWaitlist(list: Waitlist, event: WaitlistEvent): Waitlist {
  switch (event.type) {
    case 'WaitlistJoined': {
      const { entryId, visitorKey, language, joinedAt } = event.data;
      return [
        ...list,
        {
          entryId,
          visitorKey,
          personKey: limitsKeyOf(event.data),
          language,
          joinedAt,
          status: 'waiting',
          offerId: null,
          offerExpiresAt: null,
        },
      ];
    }
    case 'SeatOffered':
      return changeEntry(list, event.data.entryId, {
        status: 'offered',
        offerId: event.data.offerId,
        offerExpiresAt: event.data.expiresAt,
        offerSeat: event.data.seat,
        passedOver: undefined,
      });
    case 'WaitlistEntryPassedOver':
      return changeEntry(list, event.data.entryId, { passedOver: true });
    case 'WaitlistEntryBackInLine':
      return changeEntry(list, event.data.entryId, { passedOver: undefined });
    case 'SeatOfferLapsed':
      return changeEntry(list, event.data.entryId, { status: 'lapsed', offerExpiresAt: null });
    case 'SeatOfferTaken':
      return changeEntry(list, event.data.entryId, { status: 'taken', offerExpiresAt: null });
    case 'WaitlistEntryErased':
      return changeEntry(list, event.data.entryId, { erased: true });
    case 'WaitlistLeft':
      return changeEntry(list, event.data.entryId, { status: 'left', offerExpiresAt: null });
    case 'WaitlistEntryRemovedByStaff':
      return changeEntry(list, event.data.entryId, { status: 'removed', offerExpiresAt: null });
  }
}

export const isOutstanding = (e: WaitlistEntry, now: Date) =>
  e.status === 'offered' && e.offerExpiresAt !== null && new Date(e.offerExpiresAt) > now;

/** The offers that hold a seat at `now`. */
export function outstandingOffers(list: Waitlist | undefined, now: Date): WaitlistEntry[] {
  return (list ?? []).filter((e) => isOutstanding(e, now));
}

/** Whether the entry is still in line: waiting, or offered a seat (lapsed or not). */
export const isInLine = (e: WaitlistEntry) => e.status === 'waiting' || e.status === 'offered';

/**
 * The entry's place among those waiting (1 = next to be offered), null unless it waits. Passed
 * over or not: a passed-over entry keeps its place.
 */
export function placeInLine(list: Waitlist | undefined, entryId: string): number | null {
  const waiting = (list ?? []).filter((e) => e.status === 'waiting');
  const i = waiting.findIndex((e) => e.entryId === entryId);
  return i < 0 ? null : i + 1;
}

/** How many wait in line, passed over or not (a new entry's place is one more). */
export function lineLength(list: Waitlist | undefined): number {
  return (list ?? []).filter((e) => e.status === 'waiting').length;
}

/**
 * Whether the entry claims a freed seat before any cart: it waits and was not passed over (whom
 * the limits bar would never be offered the seat, so it would stay free for nobody).
 */
export const claimsSeat = (e: WaitlistEntry) => e.status === 'waiting' && e.passedOver !== true;

/** How many claim a freed seat: freed seats are theirs before any cart's. */
export function waitingCount(list: Waitlist | undefined): number {
  return (list ?? []).filter(claimsSeat).length;
}
