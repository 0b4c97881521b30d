import type { Request, Response } from 'express';
import {
  FIRST_SITE_ID,
  FIRST_SITE_SLUG,
  NO_HOURS,
  upcomingExceptions,
  type SiteHours as Hours,
} from '@rr/contracts/sites';
import {
  defineRoute,
  problems,
  STAFF_ROLES,
  todayIn,
  z,
  type Pool,
  type RouteDef,
} from '@rr/platform';
import type { QueryDeps } from './deps.ts';

/**
 * The library's sites (docs/product.md#sites) as visitors and staff read them. The first site
 * has a row once staff changed it; until then it is the library's own name (LIBRARY_NAME, else
 * "Bibliothek") and contact address (LIBRARY_CONTACT_EMAIL).
 */

const HoursRange = z.object({ start: z.string(), end: z.string() }).openapi('SiteHoursRange');
const SiteHours = z
  .object({
    weekly: z
      .object({
        mon: z.array(HoursRange),
        tue: z.array(HoursRange),
        wed: z.array(HoursRange),
        thu: z.array(HoursRange),
        fri: z.array(HoursRange),
        sat: z.array(HoursRange),
        sun: z.array(HoursRange),
      })
      .openapi({ description: "Each weekday's opening ranges in time order; none: closed" }),
    exceptions: z
      .array(
        z.object({
          date: z.string(),
          ranges: z.array(HoursRange).openapi({ description: 'None: closed that day' }),
          note: z.string().optional(),
          noteEn: z.string().optional(),
        }),
      )
      .openapi({ description: 'The dates with other hours, from today on, by date' }),
  })
  .openapi('SiteHours');

const SiteBound = z.object({ type: z.enum(['WORKING_DAY', 'DAY']), value: z.number() }).nullable();

export const Site = z
  .object({
    id: z.uuid(),
    version: z.number().int().openapi({
      description: 'The version an update names (0: the first site, never changed)',
    }),
    slug: z.string().openapi({ description: "The site's short name in addresses: /s/{slug}/" }),
    name: z.string(),
    nameEn: z.string().optional().openapi({
      description: "The name's English text; absent: the name serves both languages",
    }),
    contactEmail: z.string().nullable().openapi({
      description: 'The address visitors write to; null: the first site of a library without one',
    }),
    address: z.string().nullable(),
    phone: z.string().nullable(),
    mailSignature: z.string().nullable().openapi({
      description: "The closing of the site's mails; null: the library's",
    }),
    signInRequired: z.boolean().openapi({
      description:
        'Members of the university: the rooms of the site admit visitors signed in with the campus identity only',
    }),
    allowedAffiliations: z.array(z.string()).openapi({
      description:
        'And with one of these affiliations only, unless a room names its own; empty: any',
    }),
    openStart: SiteBound.openapi({
      description:
        'The start of the booking window of its rooms that set none; null: 2 days (the default)',
    }),
    openEnd: SiteBound.openapi({
      description:
        'The end of the booking window of its rooms that set none; null: 30 working days (the default)',
    }),
    roomCount: z.number().int(),
    hours: SiteHours,
    logoUrl: z.string().nullable().openapi({
      description:
        "The site's logo (relative to the API; it changes with the logo, and is cached for good); null: none",
    }),
  })
  .openapi('Site');
export type Site = z.infer<typeof Site>;

const SiteList = z.object({ content: z.array(Site) }).openapi('SiteList');

interface SiteRow {
  id: string;
  version: number;
  slug: string;
  name: string;
  name_en: string | null;
  contact_email: string;
  address: string | null;
  phone: string | null;
  mail_signature: string | null;
  sign_in_required: boolean;
  allowed_affiliations: string[] | null;
  open_start: { type: 'WORKING_DAY' | 'DAY'; value: number } | null;
  open_end: { type: 'WORKING_DAY' | 'DAY'; value: number } | null;
  room_count: number;
  hours: Hours | null;
  logo_id: string | null;
}

/** The first site as the library's configuration names it, before staff change it. */
export interface FirstSiteDefaults {
  name?: string | undefined;
  contactEmail?: string | undefined;
}

/**
 * The SQL of the sites: every row, and the first site from its defaults while it has none
 * (parameters $1 its name, $2 its contact address), each with its rooms' count.
 */
const SITES = `(
  SELECT s.id, s.version, s.slug, s.name, s.name_en, s.contact_email, s.address, s.phone,
         s.mail_signature, s.sign_in_required, s.allowed_affiliations, s.open_start, s.open_end
    FROM rm_sites s
  UNION ALL
  SELECT '${FIRST_SITE_ID}'::uuid, 0, '${FIRST_SITE_SLUG}', $1::text, NULL, $2::text, NULL, NULL, NULL,
         false, NULL, NULL::jsonb, NULL::jsonb
   WHERE NOT EXISTS (SELECT 1 FROM rm_sites WHERE id = '${FIRST_SITE_ID}')
) AS site`;

const SELECT_SITES = `SELECT site.*, (SELECT count(*)::int FROM rm_rooms r WHERE r.site_id = site.id) AS room_count,
       p.hours, p.logo_id
  FROM ${SITES} LEFT JOIN rm_site_profile p ON p.site_id = site.id`;

const toSite = (r: SiteRow, today: string): Site => ({
  id: r.id,
  version: r.version,
  slug: r.slug,
  name: r.name,
  ...(r.name_en ? { nameEn: r.name_en } : {}),
  contactEmail: r.contact_email,
  address: r.address,
  phone: r.phone,
  mailSignature: r.mail_signature,
  signInRequired: r.sign_in_required,
  allowedAffiliations: r.allowed_affiliations ?? [],
  openStart: r.open_start,
  openEnd: r.open_end,
  roomCount: r.room_count,
  // The past exceptions are of no use to anyone.
  hours: upcomingExceptions(r.hours ?? NO_HOURS, today),
  logoUrl: r.logo_id ? `sites/${r.id}/logo?v=${r.logo_id}` : null,
});

const defaults = (first: FirstSiteDefaults) => [
  first.name ?? 'Bibliothek',
  first.contactEmail ?? null,
];

/**
 * Every site: the first site first, then by name as German orders names ("Ärzte" with the A's),
 * whatever the database's collation.
 */
export async function listSites(
  pool: Pool,
  first: FirstSiteDefaults,
  today: string,
  only: readonly string[] | null = null,
): Promise<Site[]> {
  const r = await pool.query<SiteRow>(
    `${SELECT_SITES} ${only ? 'WHERE site.id = ANY($3::uuid[])' : ''}`,
    only ? [...defaults(first), only] : defaults(first),
  );
  return r.rows
    .map((row) => toSite(row, today))
    .sort(
      (a, b) =>
        Number(a.id !== FIRST_SITE_ID) - Number(b.id !== FIRST_SITE_ID) ||
        a.name.localeCompare(b.name, 'de', { sensitivity: 'base' }) ||
        a.id.localeCompare(b.id),
    );
}

async function getSite(
  pool: Pool,
  first: FirstSiteDefaults,
  today: string,
  id: string,
): Promise<Site> {
  const r = await pool.query<SiteRow>(`${SELECT_SITES} WHERE site.id = $3`, [
    ...defaults(first),
    id,
  ]);
  if (!r.rows[0]) throw problems.notFound('Site');
  return toSite(r.rows[0], today);
}

/** The SQL of a slug's site id, for a room filter (platform/src/site-filter.ts). */
export { siteIdOfSlug } from '@rr/platform';

const IdParams = z.object({ id: z.uuid('Not a valid id') });

export function siteQueryRoutes(deps: QueryDeps): RouteDef[] {
  const { pool } = deps;
  const first: FirstSiteDefaults = { name: deps.libraryName, contactEmail: deps.contactEmail };
  const today = () => todayIn(deps.clock.now(), deps.timeZone);
  return [
    defineRoute({
      method: 'get',
      path: '/sites',
      summary: "The library's sites for visitors: the first site first, then by name",
      tags: ['sites'],
      access: 'public',
      responses: { 200: { description: 'The sites', schema: SiteList } },
      handler: async () => ({ body: { content: await listSites(pool, first, today()) } }),
    }),
    defineRoute({
      method: 'get',
      path: '/admin/sites',
      summary: "The library's sites for staff",
      tags: ['sites'],
      access: [...STAFF_ROLES],
      // A user whose roles are for some sites sees those sites only.
      sites: 'filter',
      responses: { 200: { description: 'The sites', schema: SiteList } },
      handler: async ({ sites }) => ({
        body: { content: await listSites(pool, first, today(), sites) },
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/admin/sites/{id}',
      summary: 'One site',
      tags: ['sites'],
      access: [...STAFF_ROLES],
      sites: { path: { id: 'site' } },
      params: IdParams,
      responses: {
        200: { description: 'The site', schema: Site },
        404: { description: 'No such site' },
      },
      malformedPathNotFound: 'Site',
      handler: async ({ params }) => ({ body: await getSite(pool, first, today(), params.id) }),
    }),
    defineRoute({
      method: 'get',
      path: '/sites/{id}/logo',
      summary: "A site's logo (PNG, JPEG or WebP)",
      tags: ['sites'],
      access: 'public',
      params: IdParams,
      query: z.object({
        v: z.string().optional().openapi({
          description:
            "The logo's id as the site answers name it: such an address is cached for good",
        }),
      }),
      responses: {
        200: {
          description: 'The logo',
          contentType: 'image/*',
          schema: z.string().openapi({ format: 'binary' }),
        },
        304: { description: 'Not modified (If-None-Match)' },
        404: { description: 'No logo' },
      },
      malformedPathNotFound: 'Logo',
      handler: async ({ params, query, req, res }) => sendLogo(pool, params.id, query.v, req, res),
    }),
  ];
}

/**
 * Sends a site's logo (its type checked at upload by its bytes). Its ETag is its SHA-256; an
 * address naming the present logo (`?v=`, as the answers give it) is cached for good, since a new
 * logo has a new address; any other is checked again each time. Shown only as an image: never
 * sniffed as another type, sandboxed when opened on its own.
 */
async function sendLogo(
  pool: Pool,
  siteId: string,
  version: string | undefined,
  req: Request,
  res: Response,
): Promise<void> {
  const r = await pool.query<{
    logo_id: string;
    content_type: string;
    sha256: string;
    bytes: Buffer;
  }>(
    `SELECT l.logo_id, l.content_type, l.sha256, l.bytes FROM rm_site_profile p
       JOIN site_logos l ON l.logo_id = p.logo_id WHERE p.site_id = $1`,
    [siteId],
  );
  const row = r.rows[0];
  if (!row) throw problems.notFound('Logo');
  const etag = `"${row.sha256}"`;
  res.setHeader('ETag', etag);
  res.setHeader(
    'Cache-Control',
    version === row.logo_id ? 'public, max-age=31536000, immutable' : 'public, no-cache',
  );
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "sandbox; default-src 'none'");
  if (req.headers['if-none-match'] === etag) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Type', row.content_type);
  res.setHeader('Content-Disposition', 'inline');
  res.status(200).send(row.bytes);
}
