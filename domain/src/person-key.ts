/**
 * Whom the per-visitor rules count a seat for (docs/product.md#one-person-one-set-of-limits): the
 * daily and total maxima, the no-show rule and the waitlist's "nobody waits twice" and offers. A
 * visitor signed in with the campus identity is the provider's subject (with its issuer): every
 * address they book with counts for the one subject. A guest is the key of their address
 * (docs/product.md#one-person-one-key), as before sign-in existed, and an event written without a
 * subject's key keeps that meaning. A guest never shares a subject's counts, not even with the
 * same address: only the sign-in proves the person, so nobody typing a member's address uses up
 * the member's limits (nor lifts them). The blacklist stays by address.
 */
export interface PersonKeys {
  /** The keyed hash of the folded address (emailKeyForm). */
  visitorKey: string;
  /** The keyed hash of the signed-in visitor's subject (subjectKeyForm); absent: a guest. */
  subjectKey?: string | undefined;
}

/** The key the per-visitor limits, the no-show rule and the waitlist count a person by. */
export function limitsKeyOf(person: PersonKeys): string {
  return person.subjectKey ?? person.visitorKey;
}

/**
 * What of a signed-in visitor's subject (`<issuer>!<subject>`, identity/src/visitor-identity.ts)
 * is keyed: marked apart from every address's form (an address has no line break), so a subject
 * and an address never share a key, and the issuer is part of it, so two providers' subjects
 * never do either.
 */
export function subjectKeyForm(subject: string): string {
  return `campus-subject\n${subject}`;
}
