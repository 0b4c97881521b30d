import { API_TOKEN_ROLES, apiTokenInput, type ApiTokenRole } from '@rr/contracts/api-tokens';
import {
  WEBHOOK_EVENT_TYPES,
  webhookInput,
  webhookUpdateInput,
  type WebhookEventType,
} from '@rr/contracts/webhooks';
import type { WebhookEndpoint } from '../../../api/types';
import { formCheck } from '../../../lib/form-check';
import { text } from '../../../lib/staff-forms';

export { API_TOKEN_ROLES, WEBHOOK_EVENT_TYPES, type ApiTokenRole, type WebhookEventType };

/* ---- API tokens ---- */

export const TOKEN_FIELDS = ['name', 'roles', 'expiresAt'] as const;
export type TokenField = (typeof TOKEN_FIELDS)[number];
export interface TokenFormValues {
  name: string;
  roles: ApiTokenRole[];
  /** The last day the token works (the browser's local date), empty for no expiry. */
  expiresOn: string;
}

export const tokenFormDefaults = (): TokenFormValues => ({ name: '', roles: [], expiresOn: '' });

/**
 * The instant a token chosen to last until `day` expires: the end of that day where the browser
 * is (a date that is none stays as typed, for the contract to refuse).
 */
export function expiryOf(day: string): string | null {
  if (!day) return null;
  const end = new Date(`${day}T23:59:59`);
  return Number.isNaN(end.getTime()) ? day : end.toISOString();
}

/** docs/product.md#integrations: the token request, checked with the server's contract. */
export function checkTokenForm(now: () => Date) {
  return formCheck(apiTokenInput(now), (values: TokenFormValues) => ({
    name: values.name,
    roles: values.roles,
    expiresAt: expiryOf(values.expiresOn),
  }));
}

/* ---- Webhooks ---- */

export const WEBHOOK_FIELDS = ['url', 'eventTypes', 'description'] as const;
export type WebhookField = (typeof WEBHOOK_FIELDS)[number];
export interface WebhookFormValues {
  url: string;
  eventTypes: WebhookEventType[];
  description: string;
  enabled: boolean;
}

export const webhookFormDefaults = (): WebhookFormValues => ({
  url: 'https://',
  eventTypes: [],
  description: '',
  enabled: true,
});

export function webhookToValues(endpoint: WebhookEndpoint): WebhookFormValues {
  return {
    url: endpoint.url,
    eventTypes: WEBHOOK_EVENT_TYPES.filter((t) => endpoint.eventTypes.includes(t)),
    description: endpoint.description,
    enabled: endpoint.enabled,
  };
}

const webhookRequest = (values: WebhookFormValues) => ({
  url: values.url,
  eventTypes: values.eventTypes,
  description: text(values.description),
});

/** A new endpoint: URL, event types, note, checked with the server's contract. */
export const checkWebhookAddForm = formCheck(webhookInput, webhookRequest);

/** A change of an endpoint: as when made, and whether it is switched on. */
export const checkWebhookEditForm = formCheck(webhookUpdateInput, (values: WebhookFormValues) => ({
  ...webhookRequest(values),
  enabled: values.enabled,
}));

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
