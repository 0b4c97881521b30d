import type { RoomServices } from '@rr/events/catalogue';
import { Refused } from '../refusal.ts';

/**
 * A visitor signed in with the campus identity, as the seat decision sees them: what rooms for
 * members of the university admit them by (eduPersonScopedAffiliation `student@uni-x.de`,
 * eduPersonAffiliation `student`, schacHomeOrganization `uni-partner.de`, groups). Never written
 * to an event.
 */
export interface SignedInMember {
  memberships: readonly string[];
}

/** The person taking a seat as members' rooms see them: signed in, or a guest (null). */
export type Member = SignedInMember | null;

/** The affiliations a room admits; empty: every signed-in visitor (docs/product.md#room-services). */
export const admittedAffiliations = (services: RoomServices): readonly string[] =>
  services.allowedAffiliations ?? [];

/** Whether a room admits signed-in visitors only (`signInRequired`, or affiliations named). */
export const signInRequired = (services: RoomServices): boolean =>
  services.signInRequired === true || admittedAffiliations(services).length > 0;

/**
 * Members' rooms (docs/product.md#room-services): a room that requires sign-in takes no guest,
 * and a room naming affiliations admits a signed-in visitor with one of them (compared without
 * case) only. The first room that does not admit the person refuses. Staff bookings are not asked.
 */
export function mustAdmitMember(rooms: Iterable<{ services: RoomServices }>, member: Member): void {
  const held = new Set(member?.memberships.map((m) => m.toLowerCase()));
  for (const { services } of rooms) {
    if (!signInRequired(services)) continue;
    if (member === null)
      throw new Refused(
        'booking__sign_in_required',
        'This room is for members of the university: sign in with the campus account',
      );
    const admitted = admittedAffiliations(services);
    if (admitted.length > 0 && !admitted.some((a) => held.has(a.toLowerCase())))
      throw new Refused(
        { code: 'booking__affiliation_not_allowed', affiliations: admitted },
        `This room admits ${admitted.join(', ')} only`,
      );
  }
}

/** Who the person is to the members' rules of rooms (never written to an event). */
export interface Admission {
  /** The domain of the person's address (email-domains.ts). */
  emailDomain?: string | undefined;
  /** The person's campus identity, or null for a guest (a path that applies the rule loads it). */
  member?: Member | undefined;
}
