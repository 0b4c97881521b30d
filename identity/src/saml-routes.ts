import { defineRoute, type RouteDef, z } from '@rr/platform';
import {
  IdentityProviderUnavailable,
  staffSamlIdentityOf,
  type SamlServiceProvider,
} from './saml-sign-in.ts';
import { finishCampusSignIn, type SignInContext } from './sign-in-context.ts';
import { invalidReturnTo, providerUnavailablePath, staffReturnPath } from './staff-return-path.ts';

/** The path the SAML identity provider posts its answer to (a form post, no XHR header). */
export const SAML_ACS_PATH = '/auth/saml/acs';

/**
 * Sign-in with the SAML identity provider (SAML_IDP_METADATA): off to the provider, this service
 * provider's metadata, and the provider's answer.
 */
export function samlRoutes(ctx: SignInContext, provider: SamlServiceProvider): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/auth/saml/start',
      summary: 'Sign in with the SAML identity provider: redirects the browser there',
      tags: ['auth'],
      access: 'public',
      query: z.object({ returnTo: z.string().max(2000).optional() }),
      responses: {
        302: {
          description:
            "To the identity provider's sign-in page; when it does not answer, back to the staff app (`?signIn=unavailable-saml`)",
        },
      },
      handler: async ({ query, res }) => {
        const returnTo = staffReturnPath(query.returnTo ?? '/admin/');
        if (returnTo === null) throw invalidReturnTo();
        let url: string;
        res.setHeader('Cache-Control', 'no-store');
        try {
          url = await provider.start(returnTo);
        } catch (err) {
          if (!(err instanceof IdentityProviderUnavailable)) throw err;
          // A person's browser is on its way to sign in: the staff app says what to do.
          ctx.logger?.warn({ err: err.message }, 'SAML identity provider unavailable');
          res.redirect(302, providerUnavailablePath(returnTo, 'saml'));
          return;
        }
        res.redirect(302, url);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/auth/saml/metadata',
      summary: "This service provider's SAML metadata, for the identity provider's administrator",
      tags: ['auth'],
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
      path: SAML_ACS_PATH,
      summary:
        "The SAML identity provider's answer (HTTP-POST): signs the person in, or shows why not",
      tags: ['auth'],
      access: 'public',
      body: z.object({
        SAMLResponse: z.string().min(1).max(1_000_000),
        RelayState: z.string().max(2000).optional(),
      }),
      responses: { 302: { description: 'To the staff app' } },
      handler: async ({ body, req, res }) => {
        res.setHeader('Cache-Control', 'no-store');
        // RelayState came back through the browser: only a path of the staff app is followed.
        const returnTo = staffReturnPath(body.RelayState ?? '') ?? '/admin/';
        let identity;
        try {
          identity = staffSamlIdentityOf(
            await provider.answer(body.SAMLResponse),
            provider.settings,
          );
        } catch (err) {
          if (!(err instanceof IdentityProviderUnavailable)) throw err;
          ctx.logger?.warn({ err: err.message }, 'SAML identity provider unavailable');
          res.redirect(302, providerUnavailablePath(returnTo, 'saml'));
          return;
        }
        await finishCampusSignIn(ctx, req, res, 'saml', identity, returnTo);
      },
    }),
  ];
}
