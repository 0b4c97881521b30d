import type { Response } from 'express';
import {
  membersRuleOf,
  NO_ROOM_SERVICES,
  type MembersRule,
  type RoomServices,
} from '@rr/contracts';
import type { QueryDeps } from './deps.ts';
import { SharedAnswers } from './shared-answers.ts';
import { likePattern, orderBy } from './paging.ts';
import { fetchPage, sql, type Knex } from './sql.ts';
import { siteIdOfSlug } from './sites.ts';
import {
  defineRoute,
  todayIn,
  problems,
  queryInt,
  sortSpec,
  z,
  type Pool,
  type RouteDef,
  seatsTakenLateral,
} from '@rr/platform';

const minutesOrOff = z.number().nullable();
/** The room's reading-room services, each null while off. */
const RoomServicesAnswer = z
  .object({
    checkInMinutesBefore: minutesOrOff.openapi({
      description: 'Check-in opens this many minutes before a slot starts; null: no check-in',
    }),
    noShowReleaseMinutes: minutesOrOff.openapi({
      description: 'Booked tickets not checked in are released this many minutes after the start',
    }),
    waitlistOfferMinutes: minutesOrOff.openapi({
      description: 'A full slot has a waitlist; an offer holds a freed seat this many minutes',
    }),
    reminderHoursBefore: minutesOrOff.openapi({
      description: 'A reminder mail is sent this many hours before the slot',
    }),
    allowedEmailDomains: z.array(z.string()).optional().openapi({
      description:
        'Members only: visitors book with an address at one of these domains; absent: everyone',
    }),
    signInRequired: z.boolean().optional().openapi({
      description:
        'Members of the university: visitors book signed in with the campus identity only; absent: everyone',
    }),
    allowedAffiliations: z.array(z.string()).optional().openapi({
      description:
        'Members of the university: signed-in visitors with one of these affiliations (scoped, plain, home organisation or group) only; absent: any',
    }),
    confirmBookingMinutes: z.number().int().optional().openapi({
      description:
        "Confirmed addresses: a visitor's booking awaits the confirmation mail's link this many minutes (never past the slot's start), else its tickets are released; absent: off",
    }),
  })
  .openapi('RoomServices');

export const Room = z
  .object({
    id: z.uuid(),
    version: z.number(),
    siteId: z.uuid().openapi({ description: 'The site the room belongs to' }),
    name: z.string(),
    description: z.string(),
    nameEn: z.string().optional().openapi({
      description: "The name's English text; absent: the name serves both languages",
    }),
    descriptionEn: z.string().optional().openapi({
      description: "The description's English text; absent: the description serves both languages",
    }),
    capacity: z.number(),
    openStart: z.object({ type: z.enum(['WORKING_DAY', 'DAY']), value: z.number() }),
    openEnd: z.object({ type: z.enum(['WORKING_DAY', 'DAY']), value: z.number() }),
    imageAlt: z.string().nullable(),
    imageAltEn: z.string().optional().openapi({
      description: "The image alt text's English text; absent: imageAlt serves both languages",
    }),
    imageUrl: z.string().nullable(),
    order: z.number(),
    activeReservationCount: z.number().openapi({
      description: 'Seats taken from today on: booked plus held in carts (unexpired holds)',
    }),
    bookedReservationCount: z.number().openapi({ description: 'Booked tickets from today on' }),
    heldReservationCount: z
      .number()
      .openapi({ description: 'Seats held in carts now (15-minute holds, not booked)' }),
    heldUntil: z.string().nullable().openapi({
      description: 'When the last of these holds ends (ISO instant); null without holds',
    }),
    services: RoomServicesAnswer,
    members: z
      .object({
        signInRequired: z.boolean().optional(),
        allowedAffiliations: z.array(z.string()).optional(),
      })
      .openapi({
        description:
          "Members of the university as the room applies it: its own rule with its site's (sign-in when either requires it; the room's affiliations, else the site's); empty: everyone",
      }),
  })
  .openapi('Room');
export type Room = z.infer<typeof Room>;

const RoomPage = z.object({ content: z.array(Room), totalCount: z.number() }).openapi('RoomPage');

interface RoomRow {
  id: string;
  version: string;
  site_id: string;
  name: string;
  description: string;
  name_en: string | null;
  description_en: string | null;
  capacity: number;
  open_start_type: 'WORKING_DAY' | 'DAY';
  open_start_value: number;
  open_end_type: 'WORKING_DAY' | 'DAY';
  open_end_value: number;
  image_id: string | null;
  image_alt: string | null;
  image_alt_en: string | null;
  sort_order: number;
  active_count: number;
  booked_count: number;
  held_count: number;
  held_until: Date | null;
  services: Partial<RoomServices>;
  /** The room's site's rule for members of the university (rm_sites); null: none. */
  site_members: MembersRule | null;
}

function toRoom(r: RoomRow): Room {
  return {
    id: r.id,
    version: Number(r.version),
    siteId: r.site_id,
    name: r.name,
    description: r.description,
    ...(r.name_en ? { nameEn: r.name_en } : {}),
    ...(r.description_en ? { descriptionEn: r.description_en } : {}),
    capacity: r.capacity,
    openStart: { type: r.open_start_type, value: r.open_start_value },
    openEnd: { type: r.open_end_type, value: r.open_end_value },
    imageAlt: r.image_id ? r.image_alt : null,
    ...(r.image_id && r.image_alt_en ? { imageAltEn: r.image_alt_en } : {}),
    imageUrl: r.image_id ? `rooms/${r.id}/image?v=${r.image_id}` : null,
    order: r.sort_order,
    activeReservationCount: r.active_count,
    bookedReservationCount: r.booked_count,
    heldReservationCount: r.held_count,
    heldUntil: r.held_until ? r.held_until.toISOString() : null,
    services: { ...NO_ROOM_SERVICES, ...r.services },
    members: membersRuleOf(r.services, r.site_members),
  };
}

const SORT_COLUMNS = {
  order: 'sort_order',
  name: 'lower(name)',
  description: 'lower(description)',
  capacity: 'capacity',
} as const;
const ListQuery = z.object({
  site: z.string().max(40).optional().openapi({
    description: 'Only the rooms of the site with this slug (none for a slug no site has)',
  }),
  name: z.string().max(200).optional(),
  term: z.string().max(200).optional(),
  limit: queryInt(1, 999).default(999),
  offset: queryInt(0, 1_000_000).default(0),
  sort: sortSpec(['order', 'name', 'description', 'capacity']).optional(),
});

/**
 * Rooms with their active reservations from today on, apart: booked tickets, and seats held in
 * carts whose hold has not ended at `now` (held seats block a deletion only until then), with the
 * end of the last hold. Parameters `today` and `now`, in this order (`$1, $2` in SQL text, `?` in
 * a knex query). (The rm_rooms.active_reservation_count column of migration 004 is no longer used.)
 */
const roomsAsOf = (
  today: '$1' | '?',
  now: '$2' | '?',
) => `(SELECT r.*, c.booked_count, c.held_count,
    c.held_until, (c.booked_count + c.held_count)::int AS active_count,
    (SELECT jsonb_build_object('signInRequired', s.sign_in_required,
                               'allowedAffiliations', s.allowed_affiliations)
       FROM rm_sites s WHERE s.id = r.site_id) AS site_members
  FROM rm_rooms r, (SELECT ${today}::date AS today, ${now}::timestamptz AS now) p,
    ${seatsTakenLateral('t.room_id = r.id AND t.date >= p.today', 'p.now')} c) AS rooms`;
const ROOMS = roomsAsOf('$1', '$2');

async function listRooms(
  pool: Pool,
  today: string,
  now: Date,
  q: z.output<typeof ListQuery>,
  sites: readonly string[] | null = null,
) {
  const name = q.name?.trim();
  const term = q.term?.trim();
  const filtered = (query: Knex.QueryBuilder) => {
    query.from(sql.raw(roomsAsOf('?', '?'), [today, now.toISOString()]));
    // A user whose roles are for some sites sees their rooms only (docs/product.md#roles).
    if (sites) query.whereIn('site_id', [...sites]);
    if (q.site !== undefined)
      query.whereRaw(`site_id IN ${siteIdOfSlug('?')}`, [
        q.site.trim().toLowerCase(),
        q.site.trim().toLowerCase(),
      ]);
    if (name) query.where('name', 'ilike', likePattern(name));
    if (term) {
      const pattern = likePattern(term);
      query.where((any) => {
        any
          .where('name', 'ilike', pattern)
          .orWhere('description', 'ilike', pattern)
          .orWhere('name_en', 'ilike', pattern)
          .orWhere('description_en', 'ilike', pattern);
      });
    }
  };
  const { rows, total } = await fetchPage<RoomRow>(
    pool,
    '*',
    filtered,
    orderBy(q.sort, SORT_COLUMNS, [{ field: 'order', dir: 'ASC' }], ['lower(name)', 'id']),
    q,
  );
  return { content: rows.map(toRoom), totalCount: total };
}

async function getRoom(pool: Pool, today: string, now: Date, id: string): Promise<Room> {
  const r = await pool.query<RoomRow>(`SELECT * FROM ${ROOMS} WHERE id = $3`, [
    today,
    now.toISOString(),
    id,
  ]);
  if (!r.rows[0]) throw problems.notFound('Room');
  return toRoom(r.rows[0]);
}

const IdParams = z.object({ id: z.uuid('Not a valid id') });

/** The images a room has: its own and its seat plan's (their ids in rm_rooms). */
const IMAGE_COLUMNS = { room: 'image_id', 'seat-plan': 'seat_plan_image_id' } as const;

/**
 * Sends the stored bytes of a room's current image of a kind (content type checked at upload by
 * its bytes). Shown only as an image: sandboxed, never sniffed as another type (an SVG's scripts
 * never run, not even opened on its own).
 */
export async function sendImage(
  pool: Pool,
  roomId: string,
  res: Response,
  cacheControl: string,
  kind: keyof typeof IMAGE_COLUMNS = 'room',
): Promise<void> {
  const r = await pool.query<{ content_type: string; bytes: Buffer }>(
    `SELECT i.content_type, i.bytes FROM rm_rooms r JOIN room_images i ON i.image_id = r.${IMAGE_COLUMNS[kind]}
      WHERE r.id = $1`,
    [roomId],
  );
  const row = r.rows[0];
  if (!row) throw problems.notFound('Image');
  res.setHeader('Content-Type', row.content_type);
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('Content-Disposition', 'inline');
  res.setHeader('Content-Security-Policy', "sandbox; default-src 'none'");
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.status(200).send(row.bytes);
}

export function roomQueryRoutes({ pool, clock, timeZone, sharedReadMs }: QueryDeps): RouteDef[] {
  const today = () => todayIn(clock.now(), timeZone);
  // What every visitor of an opening rush asks first: one query serves the crowd while nothing
  // changed (staff's lists are not shared).
  const sharedLists = new SharedAnswers<Awaited<ReturnType<typeof listRooms>>>(sharedReadMs ?? 0);
  const sharedRooms = new SharedAnswers<Room>(sharedReadMs ?? 0);
  return [
    defineRoute({
      method: 'get',
      path: '/rooms',
      summary: 'Rooms for visitors, in the manual order',
      tags: ['rooms'],
      access: 'public',
      query: ListQuery,
      responses: { 200: { description: 'A page of rooms', schema: RoomPage } },
      handler: async ({ query }) => {
        const now = clock.now();
        return {
          body: await sharedLists.get(pool, JSON.stringify(query), now, () =>
            listRooms(pool, todayIn(now, timeZone), now, query),
          ),
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/rooms/{id}',
      summary: 'One room',
      tags: ['rooms'],
      access: 'public',
      params: IdParams,
      responses: {
        200: { description: 'The room', schema: Room },
        404: { description: 'No such room' },
      },
      handler: async ({ params }) => {
        const now = clock.now();
        return {
          body: await sharedRooms.get(pool, params.id, now, () =>
            getRoom(pool, todayIn(now, timeZone), now, params.id),
          ),
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/rooms/{id}/image',
      summary: 'The room image bytes',
      tags: ['rooms'],
      access: 'public',
      params: IdParams,
      query: z.object({ v: z.string().max(64).optional() }),
      responses: {
        200: {
          description: 'JPEG or PNG',
          schema: z.string().openapi({ format: 'binary' }),
          contentType: 'image/*',
        },
        404: { description: 'No image' },
      },
      handler: async ({ params, res }) => sendImage(pool, params.id, res, 'public, max-age=300'),
    }),
    defineRoute({
      method: 'get',
      path: '/admin/rooms',
      summary: 'Rooms for staff',
      tags: ['rooms'],
      access: ['admin', 'reports'],
      sites: 'filter',
      query: ListQuery,
      responses: { 200: { description: 'A page of rooms', schema: RoomPage } },
      handler: async ({ query, sites }) => ({
        body: await listRooms(pool, today(), clock.now(), query, sites),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/admin/rooms/{id}',
      summary: 'One room, for staff',
      tags: ['rooms'],
      access: ['admin', 'reports'],
      sites: { path: { id: 'room' } },
      params: IdParams,
      responses: {
        200: { description: 'The room', schema: Room },
        404: { description: 'No such room' },
      },
      handler: async ({ params }) => ({
        body: await getRoom(pool, today(), clock.now(), params.id),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/admin/rooms/{id}/image',
      summary: 'The room image bytes, for staff',
      tags: ['rooms'],
      access: ['admin', 'reports'],
      sites: { path: { id: 'room' } },
      params: IdParams,
      responses: {
        200: {
          description: 'JPEG or PNG',
          schema: z.string().openapi({ format: 'binary' }),
          contentType: 'image/*',
        },
        404: { description: 'No image' },
      },
      handler: async ({ params, res }) => sendImage(pool, params.id, res, 'private, no-cache'),
    }),
  ];
}
