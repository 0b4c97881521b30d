import { roleGrantsOf, STAFF_ROLES, z, type SessionUser } from '@rr/platform';

/** A signed-in staff user as the API answers it. */
export const UserSchema = z
  .object({
    username: z.string(),
    roles: z.array(z.enum(STAFF_ROLES)).openapi({
      description: 'The roles held, for all sites or for some (see `grants`)',
    }),
    grants: z.array(z.string()).openapi({
      description:
        'The roles as written, with their sites: `admin` for all sites, `admin@jura` for one',
    }),
  })
  .openapi('User');

/** The answer of a signed-in user: the name, the roles, the roles with their sites. */
export const userAnswer = (user: SessionUser) => ({
  username: user.username,
  roles: user.roles,
  grants: roleGrantsOf(user),
});
