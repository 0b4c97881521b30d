/**
 * The links the mails give their readers into the visitor app, each naming the mail's language
 * (`?lang=`, docs/product.md#configuration): the page opens in the language the mail is written
 * in, also on a device that never saw the app or remembers the other language.
 */

import type { Language } from '@rr/contracts';

/**
 * The visitor app's page at `path` (relative to the app's base, PUBLIC_BASE_URL with its closing
 * slash) in `language`; a `fragment` (what the browser never sends, e.g. a token) follows the
 * query.
 */
export function visitorLink(
  baseUrl: string,
  path: string,
  language: Language,
  fragment?: string,
): string {
  const url = new URL(path, baseUrl);
  url.searchParams.set('lang', language);
  if (fragment) url.hash = fragment;
  return url.href;
}

/** A booking's page: its tickets, where they are cancelled (every booking mail's link). */
export const bookingLink = (baseUrl: string, ownerId: string, language: Language) =>
  visitorLink(baseUrl, `reservation-confirmation/${ownerId}`, language);

/** The booking's page with the confirmation mail's token, which confirms the address. */
export const confirmationLink = (
  baseUrl: string,
  ownerId: string,
  token: string,
  language: Language,
) => visitorLink(baseUrl, `reservation-confirmation/${ownerId}`, language, `confirm=${token}`);

/** The page of every booking of an address (the "my bookings" mail's link, by its code). */
export const myBookingsLink = (baseUrl: string, code: string, language: Language) =>
  visitorLink(baseUrl, `my-bookings/${code}`, language);

/** The page that takes a waitlist's offer into a cart. */
export const waitlistOfferLink = (
  baseUrl: string,
  timeSlotId: string,
  offerId: string,
  language: Language,
) => visitorLink(baseUrl, `waitlist-offer/${timeSlotId}/${offerId}`, language);

/** The page that leaves the line (the waitlist entry's reference). */
export const waitlistLeaveLink = (baseUrl: string, reference: string, language: Language) =>
  visitorLink(baseUrl, `waitlist-leave/${reference}`, language);
