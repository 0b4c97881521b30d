import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { visitorSamlAcsUrl } from './config-visitor-sign-in.ts';

describe('visitor sign-in configuration', () => {
  it('is off with nothing set', () => {
    const c = loadConfig({});
    expect(c.VISITOR_OIDC_ISSUER).toBeUndefined();
    expect(c.VISITOR_SAML_IDP_METADATA).toBeUndefined();
    expect(c.VISITOR_SAML_SUBJECT_ATTRIBUTES).toEqual([
      'urn:oasis:names:tc:SAML:attribute:pairwise-id',
      'urn:oid:1.3.6.1.4.1.5923.1.1.1.10',
      'NameID',
    ]);
  });

  it('names what the settings lack together', () => {
    const message = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      return '';
    };
    expect(message({ VISITOR_OIDC_ISSUER: 'https://id.uni-x.de/' })).toMatch(
      /VISITOR_OIDC_CLIENT_ID: required/,
    );
    expect(
      message({ VISITOR_OIDC_ISSUER: 'http://id.uni-x.de/', VISITOR_OIDC_CLIENT_ID: 'rr' }),
    ).toMatch(/VISITOR_OIDC_ISSUER: must be https/);
    expect(message({ VISITOR_SAML_IDP_METADATA: '/etc/rr/dfn-aai.xml' })).toMatch(
      /VISITOR_SAML_SP_ENTITY_ID: required/,
    );
    expect(
      message({
        VISITOR_SAML_IDP_METADATA: '/etc/rr/dfn-aai.xml',
        VISITOR_SAML_SP_ENTITY_ID: 'urn:rr:visitors',
      }),
    ).toMatch(/VISITOR_SAML_ACS_URL: required/);
  });

  it('puts the ACS at the origin of a URL entity ID', () => {
    expect(visitorSamlAcsUrl({ VISITOR_SAML_SP_ENTITY_ID: 'https://rr.uni-x.de/shibboleth' })).toBe(
      'https://rr.uni-x.de/api/visitor-auth/saml/acs',
    );
  });
});
