import { normalizeEmail } from '@rr/domain';
import { defineRoute, isoDate, problems, sortSpec, z, type RouteDef } from '@rr/platform';
import type { QueryDeps } from './deps.ts';
import { likePattern, orderBy, pagingQuery } from './paging.ts';

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
        const where: string[] = [];
        const args: unknown[] = [];
        if (query.term?.trim()) {
          args.push(likePattern(query.term.trim()));
          where.push(`(e.email ILIKE $${args.length} OR b.description ILIKE $${args.length})`);
        }
        if (query.expiresFrom) {
          args.push(query.expiresFrom);
          where.push(`b.expired_at >= $${args.length}`);
        }
        if (query.expiresUntil) {
          args.push(query.expiresUntil);
          where.push(`b.expired_at <= $${args.length}`);
        }
        const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
        const order = orderBy(query.sort, SORT, [{ field: 'email', dir: 'ASC' }], ['e.email ASC']);
        const r = await pool.query<Row>(
          `SELECT e.email, b.expired_at, b.description, b.version, count(*) OVER () AS total FROM ${FROM} ${whereSql}
           ORDER BY ${order} LIMIT $${args.length + 1} OFFSET $${args.length + 2}`,
          [...args, query.limit, query.offset],
        );
        let total = r.rows[0]?.total ? Number(r.rows[0].total) : 0;
        if (r.rows.length === 0 && query.offset > 0)
          total = Number(
            (await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${FROM} ${whereSql}`, args))
              .rows[0]!.n,
          );
        return { body: { content: r.rows.map(toEntry), totalCount: total } };
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
