import { STAFF_ROLES, z } from '@rr/platform';

/** A signed-in staff user as the API answers it. */
export const UserSchema = z
  .object({ username: z.string(), roles: z.array(z.enum(STAFF_ROLES)) })
  .openapi('User');
