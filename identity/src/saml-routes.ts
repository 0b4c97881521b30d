import { defineRoute, problems, type RouteDef, z } from '@rr/platform';
import { IdentityProviderUnavailable, type SamlServiceProvider } from './saml-sign-in.ts';
import { finishCampusSignIn, type SignInContext } from './sign-in-context.ts';
import { invalidReturnTo, staffReturnPath } from './staff-return-path.ts';

/** The path the SAML identity provider posts its answer to (a form post, no XHR header). */
export const SAML_ACS_PATH = '/auth/saml/acs';

const unavailable = (err: unknown) => {
  if (err instanceof IdentityProviderUnavailable) return problems.unavailable();
  return err;
};

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
      responses: { 302: { description: "To the identity provider's sign-in page" } },
      handler: async ({ query, res }) => {
        const returnTo = staffReturnPath(query.returnTo ?? '/admin/');
        if (returnTo === null) throw invalidReturnTo();
        let url: string;
        try {
          url = await provider.start(returnTo);
        } catch (err) {
          throw unavailable(err);
        }
        res.setHeader('Cache-Control', 'no-store');
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
        let identity;
        try {
          identity = await provider.finish(body.SAMLResponse);
        } catch (err) {
          throw unavailable(err);
        }
        // RelayState came back through the browser: only a path of the staff app is followed.
        const returnTo = staffReturnPath(body.RelayState ?? '') ?? '/admin/';
        await finishCampusSignIn(ctx, req, res, 'saml', identity, returnTo);
      },
    }),
  ];
}
