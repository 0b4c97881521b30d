import { SiteInput } from '@rr/contracts/sites';
import type { Site } from '../../../api/types';
import { formCheck } from '../../../lib/form-check';

export const SITE_FIELDS = [
  'name',
  'nameEn',
  'slug',
  'contactEmail',
  'address',
  'phone',
  'mailSignature',
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
};

/** The site list's route. */
export const SITE_LIST_PATH = '/sites';
export const siteEditPath = (id: string) => `/site-edit/${encodeURIComponent(id)}`;

/** docs/product.md#sites: the request of the form's values, checked with the site contract. */
export const checkSiteForm = formCheck(SiteInput, (values: SiteFormValues) => ({ ...values }));

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
  };
}
