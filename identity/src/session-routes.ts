import { defineRoute, type RouteDef, z } from '@rr/platform';
import type { LdapDirectory } from './ldap-sign-in.ts';
import type { OidcProvider } from './oidc-sign-in.ts';
import type { SamlServiceProvider } from './saml-sign-in.ts';
import { SESSION_COOKIE } from './sessions.ts';
import type { StaffSignInPolicy } from './staff-sso.ts';
import { origin } from './staff-return-path.ts';
import { UserSchema, userAnswer } from './user-schema.ts';

/** The identity providers configured, each or null. */
export interface IdentityProviders {
  ldap: LdapDirectory | null;
  oidc: OidcProvider | null;
  saml: SamlServiceProvider | null;
}

const SignInProvidersSchema = z
  .object({
    providers: z.array(
      z.object({
        id: z.enum(['oidc', 'saml']),
        label: z.string(),
        startUrl: z.string().openapi({ description: 'Relative to the API base; takes ?returnTo=' }),
      }),
    ),
    directory: z.boolean(),
    /**
     * Whether the form signs in with a password for everyone (local accounts, or the directory);
     * false: only the break-glass accounts. Optional in the schema only for older clients.
     */
    passwordSignIn: z.boolean().optional(),
  })
  .openapi('SignInProviders');

/** The session of the signed-in: who it is, how to sign in, signing out. */
export function sessionRoutes(
  { ldap, oidc, saml }: IdentityProviders,
  policy: Pick<StaffSignInPolicy, 'localSignIn'>,
): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/auth/logout',
      summary: 'Sign out',
      tags: ['auth'],
      access: 'public',
      responses: {
        200: {
          description:
            'Signed out here; the browser goes on to the OpenID provider to end its session too',
          schema: z.object({ endSessionUrl: z.string() }),
        },
        204: { description: 'Signed out' },
      },
      handler: async ({ req, res }) => {
        const { method, idToken } = req.session;
        await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
        res.clearCookie(SESSION_COOKIE, { path: '/' });
        if (method === 'oidc' && idToken && oidc) {
          const url = await oidc.endSessionUrl(idToken, `${origin(req)}/admin/`);
          if (url) return { body: { endSessionUrl: url } };
        }
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/auth/me',
      summary: 'The signed-in user and roles',
      tags: ['auth'],
      access: 'signed-in',
      responses: { 200: { description: 'The user', schema: UserSchema } },
      handler: async ({ user }) => Promise.resolve({ body: user && userAnswer(user) }),
    }),
    defineRoute({
      method: 'get',
      path: '/auth/providers',
      summary: 'How staff can sign in: the form, and a button per identity provider',
      tags: ['auth'],
      access: 'public',
      responses: { 200: { description: 'The ways to sign in', schema: SignInProvidersSchema } },
      handler: () =>
        Promise.resolve({
          body: {
            providers: [
              ...(oidc
                ? [{ id: 'oidc' as const, label: oidc.settings.label, startUrl: 'auth/oidc/start' }]
                : []),
              ...(saml
                ? [{ id: 'saml' as const, label: saml.settings.label, startUrl: 'auth/saml/start' }]
                : []),
            ],
            directory: ldap !== null,
            passwordSignIn: policy.localSignIn || ldap !== null,
          },
        }),
    }),
  ];
}
