import { describe, expect, it } from 'vitest';
import {
  checkTokenForm,
  checkWebhookAddForm,
  checkWebhookEditForm,
  disabledKey,
  expiryOf,
  lastAnswer,
  webhookFormDefaults,
} from './integrations';

const now = () => new Date('2026-11-23T09:00:00Z');

describe('the token form', () => {
  it('sends the name, the roles and the end of the chosen day as the expiry', () => {
    const result = checkTokenForm(now)({
      name: ' Door counter ',
      roles: ['reports'],
      expiresOn: '2027-01-31',
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data.name).toBe('Door counter');
    expect(result.data.roles).toEqual(['reports']);
    expect(result.data.expiresAt).toBe(new Date('2027-01-31T23:59:59').toISOString());
    expect(checkTokenForm(now)({ name: 'x', roles: ['admin'], expiresOn: '' })).toMatchObject({
      ok: true,
      data: { expiresAt: null },
    });
  });

  it('names the fields it refuses by the contract’s rules', () => {
    const result = checkTokenForm(now)({ name: '', roles: [], expiresOn: '2026-01-01' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.name?.key).toBe('required');
    expect(result.errors.roles?.key).toBe('required');
    expect(result.errors.expiresAt?.key).toBe('date-future');
    expect(expiryOf('not a day')).toBe('not a day');
  });
});

describe('the webhook forms', () => {
  it('need a URL and at least one event type', () => {
    const empty = checkWebhookAddForm({ ...webhookFormDefaults(), url: 'not a url' });
    expect(empty.ok).toBe(false);
    if (empty.ok) return;
    expect(empty.errors.url?.key).toBe('invalid');
    expect(empty.errors.eventTypes?.key).toBe('required');
    const ok = checkWebhookEditForm({
      url: 'https://hooks.example.org/rr',
      eventTypes: ['booking.created'],
      description: '',
      enabled: false,
    });
    expect(ok).toMatchObject({
      ok: true,
      data: {
        url: 'https://hooks.example.org/rr',
        eventTypes: ['booking.created'],
        enabled: false,
      },
    });
  });

  it('say why an endpoint is disabled and what its deliveries last got', () => {
    expect(disabledKey({ enabled: true, disabledReason: null })).toBeNull();
    expect(disabledKey({ enabled: false, disabledReason: 'failing' })).toBe(
      'webhooks.disabled-failing',
    );
    expect(disabledKey({ enabled: false, disabledReason: 'staff' })).toBe(
      'webhooks.disabled-staff',
    );
    expect(lastAnswer({ lastStatusCode: 500, lastError: 'HTTP 500' })).toBe('500');
    expect(lastAnswer({ lastStatusCode: null, lastError: 'ECONNREFUSED' })).toBe('ECONNREFUSED');
    expect(lastAnswer({ lastStatusCode: null, lastError: null })).toBe('–');
  });
});
