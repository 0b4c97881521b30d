import { createServer, type Server } from 'node:http';
import { generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import Provider from 'oidc-provider';
import { freePort } from './ports.ts';

export const OIDC_CLIENT = { id: 'reading-room-staff', secret: 'a client secret of the tests' };

export interface TestOidcProvider {
  issuer: string;
  /** The app's settings for this provider (STAFF_ROLE_MAP aside). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

const listening = async (server: Server): Promise<number> => {
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return port;
};

const closing = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/**
 * The npm package oidc-provider on loopback with its development login and consent pages: any
 * login name signs in, and its groups come from `groups`. The client is the app at `appBaseUrl`.
 */
export async function startOidcProvider(
  appBaseUrl: string,
  groups: Record<string, string[]>,
  /** The port of an issuer the app was started with already (a free one by default). */
  issuerPort?: number,
): Promise<TestOidcProvider> {
  const started = await startProvider(
    {
      client: OIDC_CLIENT,
      redirectUri: `${appBaseUrl}/api/auth/oidc/callback`,
      postLogoutUri: `${appBaseUrl}/admin/`,
      claims: (id) => ({ sub: id, preferred_username: id, groups: groups[id] ?? [] }),
    },
    issuerPort,
  );
  return {
    ...started,
    env: {
      OIDC_ISSUER: started.issuer,
      OIDC_CLIENT_ID: OIDC_CLIENT.id,
      OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
      OIDC_LABEL: 'Campus account',
    },
  };
}

export const VISITOR_OIDC_CLIENT = { id: 'reading-room-visitors', secret: "the visitors' secret" };

/**
 * oidc-provider as the campus identity of visitors: each login name's claims (e-mail, name,
 * eduPerson affiliations, home organisation) from `people`; the client is the visitor sign-in
 * of the app at `appBaseUrl`. Its `sub` is the login name.
 */
export async function startVisitorOidcProvider(
  appBaseUrl: string,
  people: Record<string, Record<string, unknown>>,
  /** The port of an issuer the app was started with already (a free one by default). */
  issuerPort?: number,
): Promise<TestOidcProvider> {
  const started = await startProvider(
    {
      client: VISITOR_OIDC_CLIENT,
      redirectUri: `${appBaseUrl}/api/visitor-auth/oidc/callback`,
      postLogoutUri: `${appBaseUrl}/`,
      claims: (id) => ({ ...people[id], sub: id }),
    },
    issuerPort,
  );
  return {
    ...started,
    env: {
      VISITOR_OIDC_ISSUER: started.issuer,
      VISITOR_OIDC_CLIENT_ID: VISITOR_OIDC_CLIENT.id,
      VISITOR_OIDC_CLIENT_SECRET: VISITOR_OIDC_CLIENT.secret,
    },
  };
}

async function startProvider(
  o: {
    client: { id: string; secret: string };
    redirectUri: string;
    postLogoutUri: string;
    claims: (id: string) => Record<string, unknown>;
  },
  issuerPort?: number,
): Promise<Omit<TestOidcProvider, 'env'>> {
  const server = createServer();
  const port = issuerPort ?? (await freePort());
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: o.client.id,
        client_secret: o.client.secret,
        redirect_uris: [o.redirectUri],
        post_logout_redirect_uris: [o.postLogoutUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: {
      openid: ['sub'],
      profile: [
        'preferred_username',
        'name',
        'groups',
        'eduperson_scoped_affiliation',
        'eduperson_affiliation',
        'schac_home_organization',
      ],
      email: ['email', 'email_verified'],
    },
    // The groups and name go into the ID token itself, as Keycloak's and Entra's mappers do.
    conformIdTokenClaims: false,
    findAccount: (_ctx, id) =>
      Promise.resolve({
        accountId: id,
        claims: () => Promise.resolve({ ...o.claims(id), sub: id }),
      }),
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    pkce: { required: () => true, methods: ['S256'] },
    cookies: { keys: ['a cookie key of the tests'] },
  });
  // Quiet: the development pages warn on every start.
  provider.on('server_error', () => undefined);
  server.on('request', provider.callback());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { issuer, stop: () => closing(server) };
}

/**
 * Walks a browser through the provider's development pages from the app's redirect: follows the
 * provider's redirects with its cookies, signs in as `login`, consents, and answers the URL of
 * the app's callback the provider sends the browser to (not visited).
 */
export async function signInAtProvider(
  authorizationUrl: string,
  login: string,
  appBaseUrl: string,
): Promise<URL> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  let init: RequestInit = {};
  for (let step = 0; step < 20; step++) {
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    init = {};
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.href.startsWith(appBaseUrl)) return next;
      url = next.href;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (res.status !== 200 || !action || !prompt)
      throw new Error(`unexpected provider page ${res.status}: ${html.slice(0, 500)}`);
    const form = new URLSearchParams({ prompt });
    if (prompt === 'login') {
      form.set('login', login);
      form.set('password', 'any password');
    }
    url = new URL(action, url).href;
    init = {
      method: 'POST',
      body: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    };
  }
  throw new Error('the provider never sent the browser back');
}

/** The claims of the next ID token the crafted provider answers, from the authorization request. */
export type CraftIdToken = (request: { nonce: string; issuer: string }) => {
  claims: Record<string, unknown>;
  /** Signs with another key than the one the provider publishes. */
  foreignKey?: boolean;
  /** No signature at all (alg none). */
  unsigned?: boolean;
};

export interface CraftedProvider extends TestOidcProvider {
  /** What the token endpoint answers next. */
  craft: (f: CraftIdToken) => void;
}

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

function jwt(claims: Record<string, unknown>, key: KeyObject | null, kid: string): string {
  const header = key ? { alg: 'RS256', typ: 'JWT', kid } : { alg: 'none', typ: 'JWT' };
  const input = `${b64url(header)}.${b64url(claims)}`;
  if (!key) return `${input}.`;
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

/**
 * A provider of the tests' own making on loopback (discovery, keys, authorization and token
 * endpoints), whose token endpoint answers an ID token the test crafted: of another audience or
 * issuer, expired, with another nonce, signed by a stranger or not at all.
 */
export async function startCraftedProvider(): Promise<CraftedProvider> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const kid = randomUUID();
  let craft: CraftIdToken | null = null;
  const nonces = new Map<string, string>();
  const server = createServer();
  const port = await listening(server);
  const issuer = `http://127.0.0.1:${port}`;
  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/.well-known/openid-configuration') {
      json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      });
    } else if (url.pathname === '/jwks') {
      json(200, {
        keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }],
      });
    } else if (url.pathname === '/authorize') {
      // The browser would sign in here; the test reads the code from the redirect.
      const code = randomUUID();
      nonces.set(code, url.searchParams.get('nonce') ?? '');
      const back = new URL(url.searchParams.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.href });
      res.end();
    } else if (url.pathname === '/token' && req.method === 'POST') {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const code = new URLSearchParams(body).get('code') ?? '';
        const nonce = nonces.get(code);
        nonces.delete(code);
        if (nonce === undefined || !craft) {
          json(400, { error: 'invalid_grant' });
          return;
        }
        const made = craft({ nonce, issuer });
        const key = made.unsigned ? null : made.foreignKey ? stranger : privateKey;
        json(200, {
          access_token: randomUUID(),
          token_type: 'Bearer',
          expires_in: 300,
          id_token: jwt(made.claims, key, kid),
        });
      });
    } else json(404, { error: 'not_found' });
  });
  return {
    issuer,
    env: {
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: OIDC_CLIENT.id,
      OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
    },
    craft: (f) => {
      craft = f;
    },
    stop: () => closing(server),
  };
}
