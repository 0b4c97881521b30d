import * as oidc from 'openid-client';
import type { Clock, Config } from '@rr/platform';
import { isLoopbackHost } from '@rr/platform/loopback';

/** An OpenID client of the service: staff sign-in's (OIDC_*) or visitors' (VISITOR_OIDC_*). */
export interface OidcClientSettings {
  issuer: URL;
  clientId: string;
  clientSecret?: string | undefined;
  scopes: string;
  /** The button's text on the sign-in page. */
  label: string;
  /** The callback the provider sends the browser back to; from the request when unset. */
  redirectUri?: string | undefined;
}

/** Staff sign-in's client: the claims naming the account and its groups. */
export interface OidcSettings extends OidcClientSettings {
  groupsClaim: string;
  usernameClaim: string;
}

export function oidcSettingsFrom(config: Config): OidcSettings | null {
  if (!config.OIDC_ISSUER || !config.OIDC_CLIENT_ID) return null;
  return {
    issuer: new URL(config.OIDC_ISSUER),
    clientId: config.OIDC_CLIENT_ID,
    clientSecret: config.OIDC_CLIENT_SECRET,
    scopes: config.OIDC_SCOPES,
    groupsClaim: config.OIDC_GROUPS_CLAIM,
    usernameClaim: config.OIDC_USERNAME_CLAIM,
    label: config.OIDC_LABEL,
    redirectUri: config.OIDC_REDIRECT_URI,
  };
}

/** A sign-in started in this browser: what the callback must find again (kept in the session). */
export interface PendingOidcSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
}

export interface OidcIdentity {
  username: string;
  groups: string[];
  idToken?: string;
}

/** What the provider answered of a person: the ID token's claims (with userinfo's), the token. */
export interface OidcAnswer {
  /** The ID token's issuer, as checked. */
  issuer: string;
  claims: Record<string, unknown>;
  idToken?: string | undefined;
}

/** Whether a request failed for want of an answer (no connection, a timeout), not by the answer. */
const unreachable = (err: unknown): boolean =>
  err instanceof Error &&
  (err.name === 'TimeoutError' ||
    err.name === 'AbortError' ||
    (err instanceof TypeError && err.message === 'fetch failed'));

/** The provider could not be asked (discovery or its endpoints down). */
export class ProviderUnavailable extends Error {
  override name = 'ProviderUnavailable';
}

export const asStrings = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x) => typeof x === 'string') : [];

/**
 * OpenID Connect sign-in with openid-client: the authorization code flow with PKCE (S256),
 * state and nonce, the provider found by discovery from its issuer. openid-client checks the ID
 * token's issuer, audience, times and nonce, and (non-repudiation checks) its signature by the
 * provider's published keys; the provider exchanges a code once. Plain http
 * is allowed only for an issuer on loopback.
 */
export class OidcProvider<S extends OidcClientSettings = OidcSettings> {
  private config: Promise<oidc.Configuration> | null = null;

  constructor(
    readonly settings: S,
    private readonly clock: Clock,
  ) {}

  private configuration(): Promise<oidc.Configuration> {
    this.config ??= (async () => {
      const { issuer, clientId } = this.settings;
      return oidc.discovery(issuer, clientId, undefined, this.auth, {
        execute: this.insecure ? [oidc.allowInsecureRequests] : [],
        timeout: 10,
      });
    })().catch((err: unknown) => {
      this.config = null;
      throw new ProviderUnavailable(`OpenID provider discovery failed: ${(err as Error).message}`);
    });
    return this.config;
  }

  private get insecure(): boolean {
    const { issuer } = this.settings;
    return issuer.protocol === 'http:' && isLoopbackHost(issuer.hostname);
  }

  private get auth(): oidc.ClientAuth {
    const { clientSecret } = this.settings;
    return clientSecret ? oidc.ClientSecretBasic(clientSecret) : oidc.None();
  }

  /**
   * The discovered provider with times checked against the clock, not the machine's time: a
   * configuration of its own per sign-in, so the clock's skew is today's.
   */
  private async withClock(): Promise<oidc.Configuration> {
    const discovered = await this.configuration();
    const config = new oidc.Configuration(
      discovered.serverMetadata(),
      this.settings.clientId,
      {
        // eslint-disable-next-line no-restricted-syntax -- the clock's skew from the machine's time, which openid-client reads
        [oidc.clockSkew]: Math.round((this.clock.now().getTime() - Date.now()) / 1000),
        [oidc.clockTolerance]: 30,
      },
      this.auth,
    );
    if (this.insecure) oidc.allowInsecureRequests(config);
    // The ID token's signature is checked against the provider's published keys too, not only
    // trusted for having come over TLS from the token endpoint.
    oidc.enableNonRepudiationChecks(config);
    return config;
  }

  /** The provider's sign-in page for a new attempt, and what the callback must find again. */
  async start(
    redirectUri: string,
    returnTo: string,
  ): Promise<{ url: URL; pending: PendingOidcSignIn }> {
    const config = await this.configuration();
    const pending: PendingOidcSignIn = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
      returnTo,
    };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: this.settings.scopes,
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url, pending };
  }

  /**
   * The claims of the provider's answer, or an Error saying why it is refused (a wrong state, a
   * used code, a token of another issuer or audience, expired, a wrong nonce). When the ID token
   * lacks any of `wanted`, the userinfo endpoint is asked for them (providers keeping groups or
   * affiliations out of the ID token answer them there).
   */
  async answer(
    callbackUrl: URL,
    redirectUri: string,
    pending: PendingOidcSignIn,
    wanted: readonly string[],
  ): Promise<OidcAnswer | Error> {
    const config = await this.withClock();
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(
        config,
        callbackUrl,
        {
          pkceCodeVerifier: pending.codeVerifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        },
        { redirect_uri: redirectUri },
      );
    } catch (err) {
      // The provider went away between the browser's visit and the code's exchange.
      if (unreachable(err))
        throw new ProviderUnavailable(`OpenID token endpoint: ${(err as Error).message}`);
      return err instanceof Error ? err : new Error(String(err));
    }
    const claims: Record<string, unknown> = { ...tokens.claims() };
    if (
      wanted.some((name) => claims[name] === undefined) &&
      config.serverMetadata().userinfo_endpoint &&
      typeof claims.sub === 'string'
    ) {
      try {
        Object.assign(
          claims,
          { ...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)) },
          { sub: claims.sub, iss: claims.iss },
        );
      } catch (err) {
        return err instanceof Error ? err : new Error(String(err));
      }
    }
    return { issuer: config.serverMetadata().issuer, claims, idToken: tokens.id_token };
  }

  /** Where the browser ends the provider's session too, if the provider has such an endpoint. */
  async endSessionUrl(idToken: string, postLogoutRedirectUri: string): Promise<string | null> {
    const config = await this.configuration().catch(() => null);
    if (!config?.serverMetadata().end_session_endpoint) return null;
    return oidc
      .buildEndSessionUrl(config, {
        id_token_hint: idToken,
        post_logout_redirect_uri: postLogoutRedirectUri,
      })
      .toString();
  }
}

/** The staff member an answer names: the account's and the groups' claims (OIDC_*_CLAIM). */
export function staffIdentityOf(
  answer: OidcAnswer | Error,
  settings: Pick<OidcSettings, 'usernameClaim' | 'groupsClaim'>,
): OidcIdentity | Error {
  if (answer instanceof Error) return answer;
  const username = answer.claims[settings.usernameClaim];
  if (typeof username !== 'string' || username === '' || username.length > 200)
    return new Error(`the ID token has no ${settings.usernameClaim}`);
  return {
    username,
    groups: asStrings(answer.claims[settings.groupsClaim]),
    ...(answer.idToken ? { idToken: answer.idToken } : {}),
  };
}
