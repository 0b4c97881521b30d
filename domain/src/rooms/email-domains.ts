import type { RoomServices } from '@rr/events/catalogue';
import { Refused } from '../refusal.ts';

/** The domain of an address: what follows its last `@`, trimmed and lower-cased. */
export function emailDomainOf(email: string): string {
  const normalized = email.trim().toLowerCase();
  return normalized.slice(normalized.lastIndexOf('@') + 1);
}

/** The domains a room admits; empty: every address (docs/product.md#room-services). */
export const admittedDomains = (services: RoomServices): readonly string[] =>
  services.allowedEmailDomains ?? [];

/**
 * Members-only rooms (docs/product.md#room-services): a room with `allowedEmailDomains` admits
 * only addresses at one of them, exactly (a subdomain only when it is listed itself). The first
 * room that does not admit the address refuses, naming its domains. Staff bookings are not asked.
 */
export function mustAdmitAddress(
  rooms: Iterable<{ services: RoomServices }>,
  emailDomain: string | undefined,
): void {
  for (const room of rooms) {
    const domains = admittedDomains(room.services);
    if (domains.length > 0 && (emailDomain === undefined || !domains.includes(emailDomain)))
      throw new Refused(
        { code: 'booking__email_domain_not_allowed', domains },
        `This room admits addresses at ${domains.join(', ')} only`,
      );
  }
}
