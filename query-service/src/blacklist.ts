import { normalizeEmail } from '@rr/domain';
import { defineRoute, isoDate, problems, sortSpec, z, type RouteDef } from '@rr/platform';
import type { QueryDeps } from './deps.ts';
import { likePattern, orderBy, pagingQuery } from './paging.ts';
import { fetchPage, sql, type Knex } from './sql.ts';

export const BlacklistEntry = z
  .object({
    email: z.string(),
    expiredAt: z.string(),
    description: z.string().optional(),
    version: z.number(),
  })
  .openapi('BlacklistEntry');

interface Row {
  email: string;
  expired_at: string;
  description: string | null;
  version: string;
  total?: string;
}

const toEntry = (r: Row) => ({
  email: r.email,
  expiredAt: r.expired_at,
  version: Number(r.version),
  ...(r.description ? { description: r.description } : {}),
});
const FROM = 'rm_blacklist b JOIN blacklist_emails e ON e.entry_key = b.entry_key';
const SORT = {
  email: 'e.email',
  expiredAt: 'b.expired_at',
  description: "lower(coalesce(b.description, ''))",
} as const;
const ListQuery = z.object({
  term: z.string().max(320).optional(),
  expiresFrom: isoDate.optional(),
  expiresUntil: isoDate.optional(),
  ...pagingQuery(999, 999),
  sort: sortSpec(['email', 'expiredAt', 'description']).optional(),
});

export function blacklistQueryRoutes({ pool }: QueryDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/admin/blacklist',
      summary: 'Blacklist entries',
      tags: ['blacklist'],
      access: ['admin', 'reports'],
      query: ListQuery,
      responses: {
        200: {
          description: 'A page of entries',
          schema: z
            .object({ content: z.array(BlacklistEntry), totalCount: z.number() })
            .openapi('BlacklistPage'),
        },
      },
      handler: async ({ query }) => {
        const term = query.term?.trim();
        const filtered = (q: Knex.QueryBuilder) => {
          q.from(sql.raw(FROM));
          if (term) {
            const pattern = likePattern(term);
            q.where((any) => {
              any.where('e.email', 'ilike', pattern).orWhere('b.description', 'ilike', pattern);
            });
          }
          if (query.expiresFrom) q.where('b.expired_at', '>=', query.expiresFrom);
          if (query.expiresUntil) q.where('b.expired_at', '<=', query.expiresUntil);
        };
        const { rows, total } = await fetchPage<Row>(
          pool,
          'e.email, b.expired_at, b.description, b.version',
          filtered,
          orderBy(query.sort, SORT, [{ field: 'email', dir: 'ASC' }], ['e.email']),
          query,
        );
        return { body: { content: rows.map(toEntry), totalCount: total } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/blacklist/{email}',
      summary: 'One entry, by its e-mail address (URL-encoded)',
      tags: ['blacklist'],
      access: ['admin', 'reports'],
      params: z.object({ email: z.string().min(1).max(320) }),
      responses: {
        200: { description: 'The entry', schema: BlacklistEntry },
        404: { description: 'No such entry' },
      },
      handler: async ({ params }) => {
        const r = await pool.query<Row>(
          `SELECT e.email, b.expired_at, b.description, b.version FROM ${FROM} WHERE e.email = $1`,
          [normalizeEmail(params.email)],
        );
        if (!r.rows[0]) throw problems.notFound('Blacklist entry');
        return { body: toEntry(r.rows[0]) };
      },
    }),
  ];
}
