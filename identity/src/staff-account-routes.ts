import type pg from 'pg';
import { defineRoute, problems, type RouteDef, STAFF_ROLES, z } from '@rr/platform';
import { endUserSessions, staffAccounts } from './staff-accounts.ts';
import { SIGN_IN_METHODS, type SignInRecords } from './staff-sso.ts';

const SignInRecordSchema = z
  .object({
    at: z.string(),
    method: z.enum(SIGN_IN_METHODS),
    username: z.string(),
    outcome: z.enum(['signed-in', 'refused']),
    reason: z.string().nullable(),
  })
  .openapi('StaffSignIn');
const StaffAccountSchema = z
  .object({
    username: z.string(),
    source: z.enum(SIGN_IN_METHODS),
    roles: z.array(z.enum(STAFF_ROLES)),
    grants: z.array(z.string()).openapi({
      description: 'The roles with their sites, as written: `admin`, `admin@jura`',
    }),
    lastSignInAt: z.string().nullable(),
  })
  .openapi('StaffAccount');

/**
 * The admins' view of the staff accounts: the accounts, ending an account's sessions, the record
 * of sign-ins. Under /auth/ like sign-in: these read the primary's accounts, and a split
 * deployment sends every /auth/ request to the command side.
 */
export function staffAccountRoutes(pool: pg.Pool, records: SignInRecords): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/auth/staff-accounts',
      summary: 'The staff accounts: how each signs in, its roles, its last sign-in',
      tags: ['auth'],
      access: ['admin'],
      responses: {
        200: {
          description: 'The accounts by name',
          schema: z.object({ items: z.array(StaffAccountSchema) }),
        },
      },
      handler: async () => ({
        body: { items: await staffAccounts(pool) },
        headers: { 'Cache-Control': 'no-store' },
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/staff-accounts/{username}/end-sessions',
      summary: 'End every session of a staff account (it signs in again)',
      tags: ['auth'],
      access: ['admin'],
      params: z.object({ username: z.string().min(1).max(200) }),
      responses: {
        204: { description: 'Its sessions ended' },
        404: { description: 'No such account' },
      },
      handler: async ({ params }) => {
        if (!(await endUserSessions(pool, params.username))) throw problems.notFound('Account');
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/auth/sign-ins',
      summary:
        'The latest staff sign-ins and refused sign-ins, newest first; with ?name= only those of that name',
      tags: ['auth'],
      access: ['admin'],
      query: z.object({
        name: z.string().trim().min(1).max(200).optional().openapi({
          description:
            'An account, or a name typed at refused sign-ins (matched by its key, in any case)',
        }),
      }),
      responses: {
        200: {
          description: 'The latest 200 records',
          schema: z.object({ items: z.array(SignInRecordSchema) }),
        },
      },
      handler: async ({ query }) => ({
        body: { items: await records.latest(200, query.name) },
        headers: { 'Cache-Control': 'no-store' },
      }),
    }),
  ];
}
