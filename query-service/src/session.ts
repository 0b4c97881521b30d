import { defineRoute, roleGrantsOf, z, type RouteDef } from '@rr/platform';

/**
 * Who is signed in, asked without an error: the staff app asks on every load, and a signed-out
 * browser is the normal case of its sign-in page, not a failure (GET /auth/me answers 401 then,
 * which browsers log as an error on the console). `GET /auth/me` stays for its other callers.
 */
export const SessionState = z
  .object({
    signedIn: z.boolean(),
    user: z
      .object({
        username: z.string(),
        roles: z.array(z.enum(['admin', 'reports'])),
        grants: z.array(z.string()).openapi({
          description: 'The roles with their sites, as written: `admin`, `admin@jura`',
        }),
      })
      .nullable()
      .openapi({ description: 'The signed-in user and roles; null when signed out' }),
  })
  .openapi('SessionState');
export type SessionState = z.infer<typeof SessionState>;

export function sessionQueryRoutes(): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      // Not under /auth/: the gateway sends GETs there to the command side, this is a read.
      path: '/session',
      summary: 'Whether a staff user is signed in, and who (200 also when signed out)',
      tags: ['auth'],
      access: 'public',
      responses: { 200: { description: 'The session state', schema: SessionState } },
      handler: ({ user }) =>
        Promise.resolve({
          body: user
            ? {
                signedIn: true,
                user: { username: user.username, roles: user.roles, grants: roleGrantsOf(user) },
              }
            : { signedIn: false, user: null },
          headers: { 'Cache-Control': 'no-store' },
        }),
    }),
  ];
}
