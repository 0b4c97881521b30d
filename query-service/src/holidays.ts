import { defineRoute, isoDate, problems, sortSpec, z, type RouteDef, nameKey } from '@rr/platform';
import type { QueryDeps } from './deps.ts';
import { likePattern, orderBy, pagingQuery } from './paging.ts';
import { fetchPage, type Knex } from './sql.ts';

export const Holiday = z
  .object({
    id: z.uuid(),
    version: z.number(),
    name: z.string(),
    description: z.string().optional(),
    /** The English texts; absent: the German ones serve both languages. */
    nameEn: z.string().optional(),
    descriptionEn: z.string().optional(),
    date: z.string(),
    siteId: z.uuid().nullable().openapi({
      description: 'The site whose rooms it applies to; null: every site (the whole system)',
    }),
  })
  .openapi('Holiday');
type Holiday = z.infer<typeof Holiday>;

interface Row {
  id: string;
  version: number;
  name: string;
  description: string | null;
  name_en: string | null;
  description_en: string | null;
  date: string;
  site_id: string | null;
  total?: string;
}

/** description and the English texts are omitted when empty (docs/product.md#entities). */
const toHoliday = (r: Row): Holiday => ({
  id: r.id,
  version: r.version,
  name: r.name,
  date: r.date,
  siteId: r.site_id,
  ...(r.description ? { description: r.description } : {}),
  ...(r.name_en ? { nameEn: r.name_en } : {}),
  ...(r.description_en ? { descriptionEn: r.description_en } : {}),
});

const SORT = { date: 'date', name: nameKey('name') } as const;
const ListQuery = z.object({
  searchTerm: z.string().max(200).optional(),
  fromDate: isoDate.optional(),
  untilDate: isoDate.optional(),
  /** Only the holidays of the rooms of this site: the whole system's and the site's own. */
  siteId: z.uuid().optional(),
  ...pagingQuery(999, 20),
  sort: sortSpec(['date', 'name']).optional(),
});

export function holidayQueryRoutes({ pool }: QueryDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/admin/holidays',
      summary: 'Holidays (the year list asks 1 Jan to 31 Dec, limit 999)',
      tags: ['holidays'],
      access: ['admin', 'reports'],
      sites: 'library',
      query: ListQuery,
      responses: {
        200: {
          description: 'A page of holidays',
          schema: z
            .object({ content: z.array(Holiday), totalCount: z.number() })
            .openapi('HolidayPage'),
        },
      },
      handler: async ({ query }) => {
        const term = query.searchTerm?.trim();
        const filtered = (q: Knex.QueryBuilder) => {
          q.from('rm_holidays');
          if (term) {
            const pattern = likePattern(term);
            q.where((any) => {
              any.where('name', 'ilike', pattern).orWhere('description', 'ilike', pattern);
            });
          }
          if (query.fromDate) q.where('date', '>=', query.fromDate);
          if (query.untilDate) q.where('date', '<=', query.untilDate);
          if (query.siteId)
            q.where((of) => of.whereNull('site_id').orWhere('site_id', query.siteId!));
        };
        const { rows, total } = await fetchPage<Row>(
          pool,
          '*',
          filtered,
          orderBy(query.sort, SORT, [{ field: 'date', dir: 'ASC' }], [nameKey('name'), 'id']),
          query,
        );
        return { body: { content: rows.map(toHoliday), totalCount: total } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/holidays/{id}',
      summary: 'One holiday',
      tags: ['holidays'],
      access: ['admin', 'reports'],
      sites: 'library',
      params: z.object({ id: z.uuid('Not a valid id') }),
      responses: {
        200: { description: 'The holiday', schema: Holiday },
        404: { description: 'No such holiday' },
      },
      handler: async ({ params }) => {
        const r = await pool.query<Row>('SELECT * FROM rm_holidays WHERE id = $1', [params.id]);
        if (!r.rows[0]) throw problems.notFound('Holiday');
        return { body: toHoliday(r.rows[0]) };
      },
    }),
  ];
}
