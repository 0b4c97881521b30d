import { describe, expect, it } from 'vitest';
import { loadConfig } from '@rr/platform';
import { escapeFilterValue, userFilter } from './ldap-sign-in.ts';
import { rolesForGroups, signInPolicyFrom } from './staff-sso.ts';

describe('roles from groups', () => {
  const map = {
    'cn=admins,ou=groups,dc=x': ['admin'],
    desk: ['checkin'],
    'reading-room-reports': ['reports', 'checkin'],
  } as const;

  it('grants every role of every mapped group, once, in the order of the roles', () => {
    expect(rolesForGroups(['desk', 'reading-room-reports'], map)).toEqual(['reports', 'checkin']);
    expect(rolesForGroups(['cn=admins,ou=groups,dc=x', 'students'], map)).toEqual(['admin']);
  });

  it('grants roles for some sites by their slugs; a role for all sites wins over them', () => {
    const sites = {
      'jura-desk': ['checkin@jura'],
      'recht-desk': ['checkin@recht', 'reports@recht'],
      desk: ['checkin'],
    };
    expect(rolesForGroups(['recht-desk', 'jura-desk'], sites)).toEqual([
      'reports@recht',
      'checkin@jura',
      'checkin@recht',
    ]);
    expect(rolesForGroups(['jura-desk', 'desk'], sites)).toEqual(['checkin']);
  });

  it('grants nothing for unmapped groups, other spellings or object keys', () => {
    expect(rolesForGroups([], map)).toEqual([]);
    expect(rolesForGroups(['students', 'Desk', 'CN=admins,ou=groups,dc=x'], map)).toEqual([]);
    expect(rolesForGroups(['constructor', '__proto__', 'toString'], map)).toEqual([]);
  });
});

describe('settings of the campus sign-in', () => {
  it('has none by default: local sign-in for every account, sessions of 10 hours', () => {
    const policy = signInPolicyFrom(loadConfig({}));
    expect(policy).toEqual({
      roleMap: {},
      campusSessionMs: 10 * 3_600_000,
      localSignIn: true,
      localAccounts: ['admin'],
    });
  });

  it('reads STAFF_ROLE_MAP, LOCAL_SIGN_IN and the break-glass accounts', () => {
    const c = loadConfig({
      STAFF_ROLE_MAP: '{"staff":["admin","reports"]}',
      LOCAL_SIGN_IN: 'false',
      LOCAL_SIGN_IN_ACCOUNTS: 'admin, root ',
      STAFF_SSO_SESSION_HOURS: '4',
    });
    expect(signInPolicyFrom(c)).toEqual({
      roleMap: { staff: ['admin', 'reports'] },
      campusSessionMs: 4 * 3_600_000,
      localSignIn: false,
      localAccounts: ['admin', 'root'],
    });
  });

  it.each([
    ['not json', /STAFF_ROLE_MAP: must be a JSON object/],
    ['["admin"]', /STAFF_ROLE_MAP/],
    ['{"staff":"admin"}', /STAFF_ROLE_MAP\.staff/],
    ['{"staff":["root"]}', /STAFF_ROLE_MAP\.staff\.0: roles are admin, reports, checkin/],
    ['{"staff":["admin@Jura"]}', /STAFF_ROLE_MAP\.staff\.0: roles are admin, reports, checkin/],
    ['{"staff":[]}', /STAFF_ROLE_MAP\.staff: each group needs at least one role/],
  ])('stops start-up on STAFF_ROLE_MAP=%s with a message naming it', (value, message) => {
    expect(() => loadConfig({ STAFF_ROLE_MAP: value })).toThrow(message);
  });

  it('needs a role map, a search base and both bind settings with LDAP_URL', () => {
    expect(() => loadConfig({ LDAP_URL: 'ldaps://dc.campus.example' })).toThrow(
      /STAFF_ROLE_MAP: required[\s\S]*LDAP_SEARCH_BASE: required/,
    );
    expect(() =>
      loadConfig({
        LDAP_URL: 'ldaps://dc.campus.example',
        LDAP_SEARCH_BASE: 'dc=campus',
        STAFF_ROLE_MAP: '{"g":["admin"]}',
        LDAP_BIND_DN: 'cn=svc',
      }),
    ).toThrow(/LDAP_BIND_DN and LDAP_BIND_PASSWORD/);
    expect(() => loadConfig({ LDAP_URL: 'http://dc.campus.example' })).toThrow(/LDAP_URL/);
    expect(() => loadConfig({ LDAP_USER_FILTER: '(uid=alice)' })).toThrow(
      /LDAP_USER_FILTER: must contain \{\{username\}\}/,
    );
  });
});

describe('OpenID Connect settings', () => {
  const base = { STAFF_ROLE_MAP: '{"g":["admin"]}', OIDC_CLIENT_ID: 'rr' };

  it('takes an https issuer, or plain http on loopback only (a test provider)', () => {
    expect(
      loadConfig({ ...base, OIDC_ISSUER: 'https://idp.campus.example/realms/x' }).OIDC_SCOPES,
    ).toBe('openid profile email');
    expect(loadConfig({ ...base, OIDC_ISSUER: 'http://127.0.0.1:9000' }).OIDC_ISSUER).toBe(
      'http://127.0.0.1:9000',
    );
    expect(() => loadConfig({ ...base, OIDC_ISSUER: 'http://idp.campus.example' })).toThrow(
      /OIDC_ISSUER: must be https/,
    );
    expect(() => loadConfig({ OIDC_ISSUER: 'https://idp.campus.example' })).toThrow(
      /STAFF_ROLE_MAP: required[\s\S]*OIDC_CLIENT_ID: required/,
    );
  });
});

describe('LDAP filters (RFC 4515)', () => {
  it('escapes what would end or widen the filter', () => {
    expect(escapeFilterValue('*)(uid=*')).toBe('\\2a\\29\\28uid=\\2a');
    expect(escapeFilterValue('a\\b\0')).toBe('a\\5cb\\00');
    expect(escapeFilterValue('jürgen.müller')).toBe('jürgen.müller');
    expect(userFilter('(&(objectClass=user)(sAMAccountName={{username}}))', 'admin)(|(uid=*')).toBe(
      '(&(objectClass=user)(sAMAccountName=admin\\29\\28|\\28uid=\\2a))',
    );
  });
});
