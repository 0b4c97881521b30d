import { SignJWT } from 'jose';
import { z, type Clock } from '@rr/platform';
import type { GoogleWalletSigner } from './google.ts';

/** The scope of the Wallet API's objects of an issuer. */
export const GOOGLE_WALLET_SCOPE = 'https://www.googleapis.com/auth/wallet_object.issuer';
/** An access token is taken anew this long before Google says it ends. */
const TOKEN_MARGIN_MS = 60_000;

export interface GoogleWalletApiOptions {
  signer: GoogleWalletSigner;
  /** GOOGLE_WALLET_API_URL: the Wallet API's base (…/walletobjects/v1/). */
  apiUrl: string;
  /** GOOGLE_WALLET_TOKEN_URL: Google's OAuth 2.0 token endpoint. */
  tokenUrl: string;
  clock: Clock;
}

/** The answer of one call: the status (null: none) and what went wrong. */
export interface GoogleOutcome {
  status: number | null;
  error: string | null;
}

const TokenAnswer = z.object({
  access_token: z.string().min(1).max(4096),
  expires_in: z.coerce.number().int().positive().max(86_400),
});

/**
 * Google Wallet's REST API, as the service account of the save links: an access token by the
 * JWT bearer grant (RFC 7523; the assertion signed RS256 with the service account's key, for the
 * wallet scope, its audience the token endpoint), kept until shortly before it ends; then a
 * PATCH of an event ticket object with its new fields.
 */
export class GoogleWalletApi {
  private token: { value: string; until: number } | null = null;

  constructor(private readonly o: GoogleWalletApiOptions) {}

  private async accessToken(signal: AbortSignal): Promise<string> {
    const now = this.o.clock.now().getTime();
    if (this.token && this.token.until > now) return this.token.value;
    const seconds = Math.floor(now / 1000);
    const assertion = await new SignJWT({ scope: GOOGLE_WALLET_SCOPE })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(this.o.signer.serviceAccountEmail)
      .setAudience(this.o.tokenUrl)
      .setIssuedAt(seconds)
      .setExpirationTime(seconds + 3600)
      .sign(this.o.signer.key);
    const res = await fetch(this.o.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion,
      }).toString(),
      signal,
      redirect: 'error',
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`token endpoint answered ${res.status}: ${text.slice(0, 300)}`);
    let answer: z.infer<typeof TokenAnswer>;
    try {
      answer = TokenAnswer.parse(JSON.parse(text));
    } catch {
      throw new Error(`token endpoint's answer is not a token: ${text.slice(0, 300)}`);
    }
    this.token = {
      value: answer.access_token,
      until: now + Math.max(0, answer.expires_in * 1000 - TOKEN_MARGIN_MS),
    };
    return answer.access_token;
  }

  /** Patches an event ticket object's fields (`id` its full id, issuer and suffix). */
  async patchEventTicketObject(
    id: string,
    fields: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<GoogleOutcome> {
    let token: string;
    try {
      token = await this.accessToken(signal);
    } catch (err) {
      return { status: null, error: err instanceof Error ? err.message : String(err) };
    }
    const url = new URL(`eventTicketObject/${encodeURIComponent(id)}`, this.o.apiUrl);
    try {
      const res = await fetch(url, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(fields),
        signal,
        redirect: 'error',
      });
      const text = await res.text();
      // A token Google no longer takes is taken anew at the next attempt.
      if (res.status === 401) this.token = null;
      return { status: res.status, error: res.ok ? null : text.slice(0, 500) || null };
    } catch (err) {
      return { status: null, error: err instanceof Error ? err.message : String(err) };
    }
  }
}
