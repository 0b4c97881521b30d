import type { Checked, FieldErrors } from '@rr/contracts/issues';

/**
 * The staff forms' fields of the rule for members of the university (docs/product.md#room-services,
 * docs/product.md#sites), the room's and the site's alike: a checkbox for sign-in and one text
 * field for the admitted affiliations, checked with the contract (`Affiliation`) on sending.
 */
export const SIGN_IN_FIELD = 'signInRequired' as const;
export const AFFILIATIONS_FIELD = 'allowedAffiliations' as const;

/** The checkbox's value in a form of texts: 'true' while ticked, else empty. */
export const signInText = (on: boolean | undefined) => (on ? 'true' : '');

/**
 * The affiliations typed into the field, one a line or separated by commas or semicolons (a
 * group's name may hold spaces), in their order, without empty parts.
 */
export const affiliationsOf = (text: string): string[] =>
  text
    .split(/[\n,;]+/)
    .map((part) => part.trim())
    .filter(Boolean);

/** The field's text of a list of affiliations: one a line. */
export const affiliationsText = (list: readonly string[] | null | undefined) =>
  (list ?? []).join('\n');

/** The rule of the form's two fields as the request's, each left out while off. */
export function membersRuleRequest(values: {
  signInRequired?: string;
  allowedAffiliations?: string;
}) {
  const affiliations = affiliationsOf(values.allowedAffiliations ?? '');
  return {
    ...(values.signInRequired === 'true' ? { signInRequired: true } : {}),
    ...(affiliations.length ? { allowedAffiliations: affiliations } : {}),
  };
}

/** A list field's errors: one item's (`field.3`) is the field's, the first one shown. */
export function listFieldErrors<T>(result: Checked<T>, fields: readonly string[]): Checked<T> {
  if (result.ok) return result;
  const errors: FieldErrors = {};
  for (const [key, error] of Object.entries(result.errors))
    errors[fields.find((f) => key.startsWith(`${f}.`)) ?? key] ??= error;
  return { ok: false, errors };
}
