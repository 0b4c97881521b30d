import { SiteInput } from '@rr/contracts/sites';
import type { Site } from '../../../api/types';
import { check } from '@rr/contracts/issues';
import type { FormCheck } from '../../../lib/form-check';
import { numberOf, text } from '../../../lib/staff-forms';
import {
  AFFILIATIONS_FIELD,
  affiliationsText,
  listFieldErrors,
  membersRuleRequest,
  SIGN_IN_FIELD,
  signInText,
} from '../../../lib/members-rule';

export const SITE_FIELDS = [
  'name',
  'nameEn',
  'slug',
  'contactEmail',
  'address',
  'phone',
  'mailSignature',
  SIGN_IN_FIELD,
  AFFILIATIONS_FIELD,
  'openStartValue',
  'openStartType',
  'openEndValue',
  'openEndType',
] as const;
export type SiteField = (typeof SITE_FIELDS)[number];
export type SiteFormValues = Record<SiteField, string>;

export const SITE_FORM_DEFAULTS: SiteFormValues = {
  name: '',
  nameEn: '',
  slug: '',
  contactEmail: '',
  address: '',
  phone: '',
  mailSignature: '',
  signInRequired: '',
  allowedAffiliations: '',
  openStartValue: '',
  openStartType: '',
  openEndValue: '',
  openEndType: '',
};

/** The site list's route. */
export const SITE_LIST_PATH = '/sites';
export const siteEditPath = (id: string) => `/site-edit/${encodeURIComponent(id)}`;

/**
 * docs/product.md#sites: the request of the form's values, checked with the site contract; the
 * rule for members of the university left out while off (members-rule.ts).
 */
export const checkSiteForm: FormCheck<SiteFormValues, ReturnType<typeof SiteInput.parse>> = (
  values,
) => {
  const {
    signInRequired: _signIn,
    allowedAffiliations: _affiliations,
    openStartValue,
    openStartType,
    openEndValue,
    openEndType,
    ...texts
  } = values;
  // The booking window of the site's rooms: each bound left out while empty, or a number and its unit.
  const window = {
    openStartValue: numberOf(openStartValue),
    openStartType: text(openStartType),
    openEndValue: numberOf(openEndValue),
    openEndType: text(openEndType),
  };
  return listFieldErrors(check(SiteInput, { ...texts, ...membersRuleRequest(values), ...window }), [
    AFFILIATIONS_FIELD,
  ]);
};

/** A site's details as the form's values: what it does not have is empty. */
export function siteToFormValues(site: Site): SiteFormValues {
  return {
    name: site.name,
    nameEn: site.nameEn ?? '',
    slug: site.slug,
    contactEmail: site.contactEmail ?? '',
    address: site.address ?? '',
    phone: site.phone ?? '',
    mailSignature: site.mailSignature ?? '',
    signInRequired: signInText(site.signInRequired),
    allowedAffiliations: affiliationsText(site.allowedAffiliations),
    openStartValue: site.openStart ? String(site.openStart.value) : '',
    openStartType: site.openStart?.type ?? '',
    openEndValue: site.openEnd ? String(site.openEnd.value) : '',
    openEndType: site.openEnd?.type ?? '',
  };
}
