import { describe, expect, it } from 'vitest';
import { parseConfig, parseInterfaceMode, parseLabelOverride, parseLanguage } from './config';

describe('parseConfig', () => {
  it('uses the spec defaults when no attribute is set', () => {
    expect(parseConfig({}, '')).toEqual({
      baseUrl: '/',
      baseApiUrl: '/',
      baseResourcesUrl: '/',
      interface: 'user',
      labelOverride: {},
      labelAdminUrl: '',
      faqUrl: '',
      privacyUrl: '',
      recaptchaPublicToken: '',
      recaptchaSrc: '',
      language: 'de',
      pageLanguage: 'de',
      roomId: '',
    });
  });

  it('reads every data attribute', () => {
    const config = parseConfig(
      {
        baseUrl: '/admin/',
        baseApiUrl: '/api/',
        baseResourcesUrl: '/static',
        interface: 'admin',
        labelOverride: '{"common":{"app-title":"Lesesaal"}}',
        labelAdminUrl: 'https://cms.example.org/labels',
        faqUrl: 'https://example.org/faq',
        privacyUrl: 'https://example.org/privacy',
        recaptchaPublicToken: 'public-key',
        recaptchaSrc: 'https://www.google.com/recaptcha/api.js',
        roomId: ' 0b9c6a52-2f8e-4d61-9d8c-5a3e2f1b7c40 ',
      },
      'en-GB',
    );
    expect(config).toEqual({
      baseUrl: '/admin/',
      baseApiUrl: '/api/',
      baseResourcesUrl: '/static/',
      interface: 'admin',
      labelOverride: { common: { 'app-title': 'Lesesaal' } },
      labelAdminUrl: 'https://cms.example.org/labels',
      faqUrl: 'https://example.org/faq',
      privacyUrl: 'https://example.org/privacy',
      recaptchaPublicToken: 'public-key',
      recaptchaSrc: 'https://www.google.com/recaptcha/api.js',
      language: 'en',
      pageLanguage: 'en',
      roomId: '0b9c6a52-2f8e-4d61-9d8c-5a3e2f1b7c40',
    });
  });

  it('adds a trailing slash to the base addresses and treats blank values as unset', () => {
    const config = parseConfig({ baseUrl: '  ', baseApiUrl: '/api', faqUrl: '  ' }, 'de');
    expect(config.baseUrl).toBe('/');
    expect(config.baseApiUrl).toBe('/api/');
    expect(config.faqUrl).toBe('');
  });
});

describe('parseInterfaceMode', () => {
  it.each(['admin', 'reports', 'permissionerror', 'user', 'display'] as const)(
    'accepts %s',
    (mode) => {
      expect(parseInterfaceMode(mode)).toBe(mode);
    },
  );

  it.each([undefined, '', 'Admin', 'superuser', 'visitor'])('falls back to user for %j', (v) => {
    expect(parseInterfaceMode(v)).toBe('user');
  });
});

describe('parseLanguage', () => {
  it.each([
    ['de', 'de'],
    ['de-AT', 'de'],
    ['en', 'en'],
    ['EN-us', 'en'],
    ['fr', 'de'],
    ['', 'de'],
    [null, 'de'],
    [undefined, 'de'],
  ])('maps %j to %s', (input, expected) => {
    expect(parseLanguage(input)).toBe(expected);
  });
});

describe('parseLabelOverride', () => {
  it('parses a JSON object', () => {
    expect(parseLabelOverride('{"a":"b"}')).toEqual({ a: 'b' });
  });

  it.each(['{not json', '[1,2]', '"text"', '42', 'null', ''])('ignores %j', (value) => {
    expect(parseLabelOverride(value)).toEqual({});
  });
});
