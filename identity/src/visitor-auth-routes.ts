import type { Request } from 'express';
import type pg from 'pg';
import { defineRoute, problems, type Clock, type Logger, type RouteDef, z } from '@rr/platform';
import { ProviderUnavailable, type OidcProvider } from './oidc-sign-in.ts';
import { IdentityProviderUnavailable, type SamlServiceProvider } from './saml-sign-in.ts';
import { regenerateSession, saveSession, SESSION_COOKIE } from './sessions.ts';
import { invalidVisitorReturnTo, origin, visitorReturnPath } from './staff-return-path.ts';
import {
  endVisitorSessions,
  signedInVisitor,
  visitorOfOidc,
  visitorOfSaml,
  type SignedInVisitor,
  type VisitorOidcSettings,
  type VisitorSamlSettings,
} from './visitor-identity.ts';

/** The path the visitors' SAML identity provider posts its answer to (a form post). */
export const VISITOR_SAML_ACS_PATH = '/visitor-auth/saml/acs';

export interface VisitorAuthOptions {
  pool: pg.Pool;
  clock: Clock;
  logger?: Logger | undefined;
  oidc: OidcProvider<VisitorOidcSettings> | null;
  saml: SamlServiceProvider<VisitorSamlSettings> | null;
  /** How long a visitor's sign-in lasts at most. */
  sessionMs: number;
}

/** The visitor app's page with `?visitorSignIn=<outcome>` (failed, unavailable). */
function withOutcome(returnTo: string, outcome: 'failed' | 'unavailable'): string {
  const url = new URL(visitorReturnPath(returnTo) ?? '/', 'http://app.invalid');
  url.searchParams.set('visitorSignIn', outcome);
  return url.pathname + url.search + url.hash;
}

const returnToQuery = z.object({ returnTo: z.string().max(2000).optional() });

const VisitorSchema = z
  .object({
    subject: z.string(),
    email: z.string().nullable(),
    name: z.string().nullable(),
    affiliations: z.array(z.string()),
  })
  .openapi('SignedInVisitor');

/**
 * Opens the visitor's session in a new session record: a fixed session id from before is of no
 * use, and a staff user of the same browser is signed out (a session is one or the other).
 */
async function startVisitorSession(req: Request, visitor: SignedInVisitor): Promise<void> {
  await regenerateSession(req);
  req.session.visitor = visitor;
  await saveSession(req);
}

/**
 * Visitors' sign-in with the campus identity (VISITOR_OIDC_*, VISITOR_SAML_*): the same provider
 * code as staff sign-in, another client or service provider, and a session that holds a visitor,
 * never a staff user.
 */
export function visitorAuthRoutes(options: VisitorAuthOptions): RouteDef[] {
  const { oidc, saml, clock } = options;
  const until = () => clock.now().getTime() + options.sessionMs;
  const routes: RouteDef[] = [
    defineRoute({
      method: 'get',
      path: '/visitor-auth/me',
      summary: 'The visitor signed in with the campus identity',
      tags: ['visitor-auth'],
      access: 'public',
      responses: {
        200: { description: 'The visitor and what the provider said', schema: VisitorSchema },
        401: { description: 'No visitor signed in' },
      },
      handler: async ({ req, res }) => {
        res.setHeader('Cache-Control', 'no-store');
        const visitor = signedInVisitor(req, clock);
        if (!visitor) throw problems.unauthorized();
        const { subject, email, name, affiliations } = visitor;
        return Promise.resolve({ body: { subject, email, name, affiliations } });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/visitor-auth/logout',
      summary: "Sign the visitor out: every session of the visitor's subject ends",
      tags: ['visitor-auth'],
      access: 'public',
      responses: { 204: { description: 'Signed out' } },
      handler: async ({ req, res }) => {
        const visitor = req.session?.visitor;
        if (visitor) await endVisitorSessions(options.pool, visitor.subject);
        if (req.session) await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
        res.clearCookie(SESSION_COOKIE, { path: '/' });
        return { status: 204 };
      },
    }),
  ];
  if (oidc) routes.push(...oidcVisitorRoutes(options, oidc, until));
  if (saml) routes.push(...samlVisitorRoutes(options, saml, until));
  return routes;
}

function oidcVisitorRoutes(
  options: VisitorAuthOptions,
  provider: OidcProvider<VisitorOidcSettings>,
  until: () => number,
): RouteDef[] {
  const redirectUri = (req: Request) =>
    provider.settings.redirectUri ?? `${origin(req)}/api/visitor-auth/oidc/callback`;
  return [
    defineRoute({
      method: 'get',
      path: '/visitor-auth/oidc/start',
      summary: "A visitor's sign-in with the OpenID provider: redirects the browser there",
      tags: ['visitor-auth'],
      access: 'public',
      query: returnToQuery,
      responses: {
        302: {
          description:
            "To the provider's sign-in page; when it does not answer, back (`?visitorSignIn=unavailable`)",
        },
      },
      handler: async ({ query, req, res }) => {
        const returnTo = visitorReturnPath(query.returnTo ?? '/');
        if (returnTo === null) throw invalidVisitorReturnTo();
        res.setHeader('Cache-Control', 'no-store');
        let started;
        try {
          started = await provider.start(redirectUri(req), returnTo);
        } catch (err) {
          if (!(err instanceof ProviderUnavailable)) throw err;
          options.logger?.warn({ err: err.message }, 'visitor OpenID provider unavailable');
          res.redirect(302, withOutcome(returnTo, 'unavailable'));
          return;
        }
        req.session.visitorOidcPending = started.pending;
        await saveSession(req);
        res.redirect(302, started.url.toString());
      },
    }),
    defineRoute({
      method: 'get',
      path: '/visitor-auth/oidc/callback',
      summary: "The OpenID provider's answer: signs the visitor in, or shows why not",
      tags: ['visitor-auth'],
      access: 'public',
      responses: { 302: { description: 'To the visitor app' } },
      handler: async ({ req, res }) => {
        res.setHeader('Cache-Control', 'no-store');
        const pending = req.session.visitorOidcPending;
        // Used once, whatever the answer: a replayed callback finds nothing to finish.
        delete req.session.visitorOidcPending;
        if (!pending) {
          res.redirect(302, withOutcome('/', 'failed'));
          return;
        }
        const callbackUrl = new URL(req.originalUrl, `${origin(req)}/`);
        const { claims } = provider.settings;
        let visitor;
        try {
          visitor = visitorOfOidc(
            await provider.answer(callbackUrl, redirectUri(req), pending, Object.values(claims)),
            claims,
            until(),
          );
        } catch (err) {
          if (!(err instanceof ProviderUnavailable)) throw err;
          options.logger?.warn({ err: err.message }, 'visitor OpenID provider unavailable');
          res.redirect(302, withOutcome(pending.returnTo, 'unavailable'));
          return;
        }
        if (visitor instanceof Error) {
          options.logger?.info({ err: visitor.message }, 'visitor sign-in refused');
          await saveSession(req).catch(() => undefined);
          res.redirect(302, withOutcome(pending.returnTo, 'failed'));
          return;
        }
        await startVisitorSession(req, visitor);
        res.redirect(302, pending.returnTo);
      },
    }),
  ];
}

function samlVisitorRoutes(
  options: VisitorAuthOptions,
  provider: SamlServiceProvider<VisitorSamlSettings>,
  until: () => number,
): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/visitor-auth/saml/start',
      summary: "A visitor's sign-in with the SAML identity provider: redirects the browser there",
      tags: ['visitor-auth'],
      access: 'public',
      query: returnToQuery,
      responses: {
        302: {
          description:
            "To the identity provider's sign-in page; when it does not answer, back (`?visitorSignIn=unavailable`)",
        },
      },
      handler: async ({ query, res }) => {
        const returnTo = visitorReturnPath(query.returnTo ?? '/');
        if (returnTo === null) throw invalidVisitorReturnTo();
        res.setHeader('Cache-Control', 'no-store');
        let url: string;
        try {
          url = await provider.start(returnTo);
        } catch (err) {
          if (!(err instanceof IdentityProviderUnavailable)) throw err;
          options.logger?.warn({ err: err.message }, 'visitor SAML identity provider unavailable');
          res.redirect(302, withOutcome(returnTo, 'unavailable'));
          return;
        }
        res.redirect(302, url);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/visitor-auth/saml/metadata',
      summary: "The visitors' service provider's SAML metadata, for the federation or the IdP",
      tags: ['visitor-auth'],
      access: 'public',
      responses: {
        200: { description: 'SP metadata', contentType: 'application/samlmetadata+xml' },
      },
      handler: async ({ res }) => {
        res.type('application/samlmetadata+xml').send(provider.metadata());
        return Promise.resolve();
      },
    }),
    defineRoute({
      method: 'post',
      path: VISITOR_SAML_ACS_PATH,
      summary: "The SAML identity provider's answer (HTTP-POST): signs the visitor in",
      tags: ['visitor-auth'],
      access: 'public',
      body: z.object({
        SAMLResponse: z.string().min(1).max(1_000_000),
        RelayState: z.string().max(2000).optional(),
      }),
      responses: { 302: { description: 'To the visitor app' } },
      handler: async ({ body, req, res }) => {
        res.setHeader('Cache-Control', 'no-store');
        // RelayState came back through the browser: only a path of the visitor app is followed.
        const returnTo = visitorReturnPath(body.RelayState ?? '') ?? '/';
        let visitor;
        try {
          visitor = visitorOfSaml(
            await provider.answer(body.SAMLResponse),
            provider.settings,
            until(),
          );
        } catch (err) {
          if (!(err instanceof IdentityProviderUnavailable)) throw err;
          options.logger?.warn({ err: err.message }, 'visitor SAML identity provider unavailable');
          res.redirect(302, withOutcome(returnTo, 'unavailable'));
          return;
        }
        if (visitor instanceof Error) {
          options.logger?.info({ err: visitor.message }, 'visitor sign-in refused');
          res.redirect(302, withOutcome(returnTo, 'failed'));
          return;
        }
        await startVisitorSession(req, visitor);
        res.redirect(302, returnTo);
      },
    }),
  ];
}
