import { API_TOKEN_ROLES, apiTokenInput, type ApiTokenRole } from '@rr/contracts/api-tokens';
import {
  WEBHOOK_EVENT_TYPES,
  webhookInput,
  webhookUpdateInput,
  type WebhookEventType,
} from '@rr/contracts/webhooks';
import type { WebhookEndpoint } from '../../../api/types';
import type { FieldErrors } from '@rr/contracts/issues';
import { errorsOf, formCheck, type FormCheck } from '../../../lib/form-check';
import { text } from '../../../lib/staff-forms';

export { API_TOKEN_ROLES, WEBHOOK_EVENT_TYPES, type ApiTokenRole, type WebhookEventType };

/* ---- API tokens ---- */

/**
 * Which sites a role or a webhook is for (docs/product.md#roles-for-some-sites): null all sites,
 * else the sites chosen (none chosen yet: the choice is missing).
 */
export type SiteScope = string[] | null;

/** The field of a role's sites: `sites-admin`. */
export const sitesFieldOf = (role: ApiTokenRole) => `sites-${role}` as const;

export const TOKEN_FIELDS = [
  'name',
  'roles',
  ...API_TOKEN_ROLES.map(sitesFieldOf),
  'expiresAt',
] as const;
export type TokenField = 'name' | 'roles' | ReturnType<typeof sitesFieldOf> | 'expiresAt';
export interface TokenFormValues {
  name: string;
  roles: ApiTokenRole[];
  /** The sites of each role by their slugs (absent or null: all sites). */
  sites: Partial<Record<ApiTokenRole, SiteScope>>;
  /** The last day the token works (the browser's local date), empty for no expiry. */
  expiresOn: string;
}

export const tokenFormDefaults = (): TokenFormValues => ({
  name: '',
  roles: [],
  sites: {},
  expiresOn: '',
});

/** The roles as the API takes them: `admin` for all sites, `admin@jura` for each site chosen. */
export function grantsOf(values: Pick<TokenFormValues, 'roles' | 'sites'>): string[] {
  return values.roles.flatMap((role) => {
    const slugs = values.sites[role];
    return slugs ? slugs.map((slug) => `${role}@${slug}`) : [role];
  });
}

/**
 * The instant a token chosen to last until `day` expires: the end of that day where the browser
 * is (a date that is none stays as typed, for the contract to refuse).
 */
export function expiryOf(day: string): string | null {
  if (!day) return null;
  const end = new Date(`${day}T23:59:59`);
  return Number.isNaN(end.getTime()) ? day : end.toISOString();
}

/**
 * docs/product.md#integrations: the token request, checked with the server's contract; a role
 * for some sites needs at least one site chosen.
 */
export function checkTokenForm(now: () => Date) {
  const contract = formCheck(apiTokenInput(now), (values: TokenFormValues) => ({
    name: values.name,
    roles: grantsOf(values),
    expiresAt: expiryOf(values.expiresOn),
  }));
  return (values: TokenFormValues) => {
    const result = contract(values);
    const missing = values.roles.filter((role) => values.sites[role]?.length === 0);
    if (!missing.length) return result;
    const errors: FieldErrors = { ...errorsOf(result) };
    for (const role of missing) errors[sitesFieldOf(role)] = { key: 'required' };
    return { ok: false as const, errors };
  };
}

/* ---- Webhooks ---- */

export const WEBHOOK_FIELDS = ['url', 'eventTypes', 'siteIds', 'description'] as const;
export type WebhookField = (typeof WEBHOOK_FIELDS)[number];
export interface WebhookFormValues {
  url: string;
  eventTypes: WebhookEventType[];
  /** The sites by their ids; null: all sites. */
  siteIds: SiteScope;
  description: string;
  enabled: boolean;
}

export const webhookFormDefaults = (): WebhookFormValues => ({
  url: 'https://',
  eventTypes: [],
  siteIds: null,
  description: '',
  enabled: true,
});

export function webhookToValues(endpoint: WebhookEndpoint): WebhookFormValues {
  return {
    url: endpoint.url,
    eventTypes: WEBHOOK_EVENT_TYPES.filter((t) => endpoint.eventTypes.includes(t)),
    siteIds: endpoint.siteIds.length ? endpoint.siteIds : null,
    description: endpoint.description,
    enabled: endpoint.enabled,
  };
}

const webhookRequest = (values: WebhookFormValues) => ({
  url: values.url,
  eventTypes: values.eventTypes,
  siteIds: values.siteIds ?? [],
  description: text(values.description),
});

/** Some sites, none of them chosen: the choice is missing (an empty list would mean all). */
function withSites<T>(check: FormCheck<WebhookFormValues, T>): FormCheck<WebhookFormValues, T> {
  return (values) => {
    const result = check(values);
    if (values.siteIds?.length !== 0) return result;
    return { ok: false, errors: { ...errorsOf(result), siteIds: { key: 'required' } } };
  };
}

/** A new endpoint: URL, event types, sites, note, checked with the server's contract. */
export const checkWebhookAddForm = withSites(formCheck(webhookInput, webhookRequest));

/** A change of an endpoint: as when made, and whether it is switched on. */
export const checkWebhookEditForm = withSites(
  formCheck(webhookUpdateInput, (values: WebhookFormValues) => ({
    ...webhookRequest(values),
    enabled: values.enabled,
  })),
);

/**
 * Why an endpoint gets nothing, as a message key of `admin-integrations` (null while enabled):
 * failing for a day (with the last answer), or paused by staff.
 */
export function disabledKey(endpoint: Pick<WebhookEndpoint, 'enabled' | 'disabledReason'>) {
  if (endpoint.enabled) return null;
  return endpoint.disabledReason === 'failing'
    ? 'webhooks.disabled-failing'
    : 'webhooks.disabled-staff';
}

/** What a delivery's last attempt answered: the HTTP status, else the error, else nothing yet. */
export function lastAnswer(d: { lastStatusCode: number | null; lastError: string | null }): string {
  if (d.lastStatusCode !== null) return String(d.lastStatusCode);
  return d.lastError ?? '–';
}
