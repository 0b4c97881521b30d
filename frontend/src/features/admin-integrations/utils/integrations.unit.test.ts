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
      sites: {},
      expiresOn: '2027-01-31',
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data.name).toBe('Door counter');
    expect(result.data.roles).toEqual(['reports']);
    expect(result.data.expiresAt).toBe(new Date('2027-01-31T23:59:59').toISOString());
    expect(
      checkTokenForm(now)({ name: 'x', roles: ['admin'], sites: {}, expiresOn: '' }),
    ).toMatchObject({
      ok: true,
      data: { expiresAt: null },
    });
  });

  it('names the fields it refuses by the contract’s rules', () => {
    const result = checkTokenForm(now)({ name: '', roles: [], sites: {}, expiresOn: '2026-01-01' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.name?.key).toBe('required');
    expect(result.errors.roles?.key).toBe('required');
    expect(result.errors.expiresAt?.key).toBe('date-future');
    expect(expiryOf('not a day')).toBe('not a day');
  });

  it('writes a role for some sites once per site, and needs a site for it', () => {
    const result = checkTokenForm(now)({
      name: 'Desk',
      roles: ['admin', 'checkin'],
      sites: { admin: null, checkin: ['jura', 'recht'] },
      expiresOn: '',
    });
    expect(result).toMatchObject({
      ok: true,
      data: { roles: ['admin', 'checkin@jura', 'checkin@recht'] },
    });
    const none = checkTokenForm(now)({
      name: 'Desk',
      roles: ['admin', 'checkin'],
      sites: { checkin: [] },
      expiresOn: '',
    });
    expect(none).toMatchObject({ ok: false, errors: { 'sites-checkin': { key: 'required' } } });
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
      siteIds: null,
      description: '',
      enabled: false,
    });
    expect(ok).toMatchObject({
      ok: true,
      data: {
        url: 'https://hooks.example.org/rr',
        eventTypes: ['booking.created'],
        siteIds: [],
        enabled: false,
      },
    });
  });

  it('send the sites chosen, and need one when some sites are asked for', () => {
    const site = '9d3b1c1e-6f43-4e8e-9a51-0c0f6f0e0b7a';
    const values = { ...webhookFormDefaults(), url: 'https://hooks.example.org/rr' };
    expect(
      checkWebhookAddForm({ ...values, eventTypes: ['room.changed'], siteIds: [site] }),
    ).toMatchObject({ ok: true, data: { siteIds: [site] } });
    expect(
      checkWebhookAddForm({ ...values, eventTypes: ['room.changed'], siteIds: [] }),
    ).toMatchObject({ ok: false, errors: { siteIds: { key: 'required' } } });
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
