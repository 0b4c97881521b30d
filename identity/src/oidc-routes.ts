import type { Request } from 'express';
import { defineRoute, type RouteDef, z } from '@rr/platform';
import { ProviderUnavailable, staffIdentityOf, type OidcProvider } from './oidc-sign-in.ts';
import { saveSession } from './sessions.ts';
import { finishCampusSignIn, type SignInContext } from './sign-in-context.ts';
import {
  invalidReturnTo,
  origin,
  providerUnavailablePath,
  SIGN_IN_REFUSED,
  staffReturnPath,
} from './staff-return-path.ts';

/** Stores the session, whether or not that works: the browser is sent on either way. */
const trySaveSession = (req: Request) => saveSession(req).catch(() => undefined);

/** Sign-in with the OpenID provider (OIDC_ISSUER): off to the provider, and its answer. */
export function oidcRoutes(ctx: SignInContext, provider: OidcProvider): RouteDef[] {
  const redirectUri = (req: Request) =>
    provider.settings.redirectUri ?? `${origin(req)}/api/auth/oidc/callback`;
  return [
    defineRoute({
      method: 'get',
      path: '/auth/oidc/start',
      summary: 'Sign in with the OpenID provider: redirects the browser there',
      tags: ['auth'],
      access: 'public',
      query: z.object({ returnTo: z.string().max(2000).optional() }),
      responses: {
        302: {
          description:
            "To the provider's sign-in page; when the provider does not answer, back to the staff app (`?signIn=unavailable-oidc`)",
        },
      },
      handler: async ({ query, req, res }) => {
        const returnTo = staffReturnPath(query.returnTo ?? '/admin/');
        if (returnTo === null) throw invalidReturnTo();
        let started;
        try {
          started = await provider.start(redirectUri(req), returnTo);
        } catch (err) {
          if (!(err instanceof ProviderUnavailable)) throw err;
          // A person's browser is on its way to sign in: the staff app says what to do.
          ctx.logger?.warn({ err: err.message }, 'OpenID provider unavailable');
          res.setHeader('Cache-Control', 'no-store');
          res.redirect(302, providerUnavailablePath(returnTo, 'oidc'));
          return;
        }
        req.session.oidcPending = started.pending;
        await saveSession(req);
        res.setHeader('Cache-Control', 'no-store');
        res.redirect(302, started.url.toString());
      },
    }),
    defineRoute({
      method: 'get',
      path: '/auth/oidc/callback',
      summary: "The OpenID provider's answer: signs the person in, or shows why not",
      tags: ['auth'],
      access: 'public',
      responses: { 302: { description: 'To the staff app' } },
      handler: async ({ req, res }) => {
        res.setHeader('Cache-Control', 'no-store');
        const pending = req.session.oidcPending;
        // Used once, whatever the answer: a replayed callback finds nothing to finish.
        delete req.session.oidcPending;
        if (!pending) {
          await ctx.records.record('oidc', '', 'refused', 'provider-refused');
          res.redirect(302, SIGN_IN_REFUSED.failed);
          return;
        }
        const callbackUrl = new URL(req.originalUrl, `${origin(req)}/`);
        let identity;
        try {
          const { usernameClaim, groupsClaim } = provider.settings;
          identity = staffIdentityOf(
            await provider.answer(callbackUrl, redirectUri(req), pending, [
              usernameClaim,
              groupsClaim,
            ]),
            provider.settings,
          );
        } catch (err) {
          if (!(err instanceof ProviderUnavailable)) throw err;
          ctx.logger?.warn({ err: err.message }, 'OpenID provider unavailable');
          res.redirect(302, providerUnavailablePath(pending.returnTo, 'oidc'));
          return;
        }
        await finishCampusSignIn(ctx, req, res, 'oidc', identity, pending.returnTo, () =>
          trySaveSession(req),
        );
      },
    }),
  ];
}
