import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { webPushSettingsOf } from './config-push.ts';
import { walletsConfigured } from './config-wallet.ts';

describe('configuration', () => {
  it('applies the spec defaults', () => {
    const c = loadConfig({}, '/srv/app');
    expect(c.PORT).toBe(8080);
    expect(c.TIME_ZONE).toBe('Europe/Vienna');
    expect(c.DATA_DIR).toBe('/srv/app/data');
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it('stops with a message naming each bad variable', () => {
    expect(() =>
      loadConfig({ PORT: 'eighty', TIME_ZONE: 'Mars/Olympus', DATABASE_URL: 'mysql://x' }),
    ).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', TIME_ZONE: 'Mars/Olympus' });
    } catch (err) {
      expect((err as Error).message).toMatch(/PORT/);
      expect((err as Error).message).toMatch(/TIME_ZONE/);
    }
  });

  it('accepts a PostgreSQL URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/rr' }).DATABASE_URL).toBe(
      'postgres://u:p@db:5432/rr',
    );
  });

  it('reads comma-separated URL lists, and refuses a bad one', () => {
    const c = loadConfig({
      GATEWAY_COMMAND_URLS: 'http://127.0.0.1:8081, http://127.0.0.1:8082',
      CSP_EXTRA_ORIGINS: 'https://www.google.com/recaptcha/api.js',
    });
    expect(c.GATEWAY_COMMAND_URLS).toEqual(['http://127.0.0.1:8081', 'http://127.0.0.1:8082']);
    expect(c.GATEWAY_QUERY_URLS).toEqual([]);
    expect(c.CSP_EXTRA_ORIGINS).toEqual(['https://www.google.com']);
    expect(() => loadConfig({ GATEWAY_QUERY_URLS: 'not a url' })).toThrow(/GATEWAY_QUERY_URLS/);
  });

  it('turns web push on with all three VAPID values, off with none, and refuses anything between', () => {
    const keys = {
      WEB_PUSH_VAPID_PUBLIC_KEY: Buffer.alloc(65, 4).toString('base64url'),
      WEB_PUSH_VAPID_PRIVATE_KEY: Buffer.alloc(32, 7).toString('base64url'),
      WEB_PUSH_SUBJECT: 'mailto:lesesaal@library.example',
    };
    expect(webPushSettingsOf(loadConfig({}))).toBeNull();
    expect(webPushSettingsOf(loadConfig(keys))).toEqual({
      publicKey: keys.WEB_PUSH_VAPID_PUBLIC_KEY,
      privateKey: keys.WEB_PUSH_VAPID_PRIVATE_KEY,
      subject: keys.WEB_PUSH_SUBJECT,
    });
    expect(() =>
      loadConfig({ ...keys, WEB_PUSH_SUBJECT: '', WEB_PUSH_VAPID_PRIVATE_KEY: '' }),
    ).toThrow(/all three or none/);
    expect(() => loadConfig({ ...keys, WEB_PUSH_VAPID_PUBLIC_KEY: 'c2hvcnQ' })).toThrow(
      /WEB_PUSH_VAPID_PUBLIC_KEY/,
    );
    expect(() => loadConfig({ ...keys, WEB_PUSH_SUBJECT: 'http://library.example' })).toThrow(
      /WEB_PUSH_SUBJECT/,
    );
  });

  it('reads replicas from READ_DATABASE_URL, PostgreSQL URLs only (none by default)', () => {
    expect(loadConfig({}).READ_DATABASE_URL).toEqual([]);
    expect(
      loadConfig({ READ_DATABASE_URL: 'postgres://u:p@r1:5432/rr,postgresql://u:p@r2/rr' })
        .READ_DATABASE_URL,
    ).toEqual(['postgres://u:p@r1:5432/rr', 'postgresql://u:p@r2/rr']);
    expect(() => loadConfig({ READ_DATABASE_URL: 'http://r1/rr' })).toThrow(/READ_DATABASE_URL/);
  });

  it('offers a wallet only with all its settings, and stops naming the missing ones of a wallet half set', () => {
    expect(walletsConfigured(loadConfig({}))).toEqual({ apple: false, google: false });
    const google = {
      GOOGLE_WALLET_ISSUER_ID: '3388000000012345678',
      GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL: 'wallet@example.iam.gserviceaccount.com',
      GOOGLE_WALLET_PRIVATE_KEY_FILE: '/etc/rr/google.pem',
    };
    expect(walletsConfigured(loadConfig(google))).toEqual({ apple: false, google: true });
    expect(() =>
      loadConfig({ WALLET_PASS_TYPE_ID: 'pass.at.example', WALLET_TEAM_ID: 'TEAM123456' }),
    ).toThrow(/WALLET_SIGNER_CERT_FILE, WALLET_SIGNER_KEY_FILE, WALLET_WWDR_CERT_FILE/);
    expect(() => loadConfig({ GOOGLE_WALLET_ISSUER_ID: 'abc' })).toThrow(/GOOGLE_WALLET_ISSUER_ID/);
  });
});
