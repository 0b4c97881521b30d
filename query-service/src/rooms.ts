import type { Response } from 'express';
import type { QueryDeps } from './deps.ts';
import {
  Room,
  RoomPage,
  StaffRoom,
  StaffRoomPage,
  toRoom,
  toStaffRoom,
  type RoomRow,
  type StaffRoomRow,
} from './room-answers.ts';
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
  slugOf,
  nameKey,
} from '@rr/platform';

const SORT_COLUMNS = {
  order: 'sort_order',
  name: nameKey('name'),
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

/** Each room's site's rule for members of the university, as `site_members`. */
const SITE_MEMBERS = `(SELECT jsonb_build_object('signInRequired', s.sign_in_required,
                               'allowedAffiliations', s.allowed_affiliations)
       FROM rm_sites s WHERE s.id = r.site_id) AS site_members`;

/**
 * Rooms with their active reservations from today on, apart: booked tickets, and seats held in
 * carts whose hold has not ended at `now` (held seats block a deletion only until then), with the
 * end of the last hold. Parameters `today` and `now`, in this order (`$1, $2` in SQL text, `?` in
 * a knex query). (The rm_rooms.active_reservation_count column of migration 004 is no longer used.)
 */
const staffRoomsAsOf = (
  today: '$1' | '?',
  now: '$2' | '?',
) => `(SELECT r.*, c.booked_count, c.held_count,
    c.held_until, (c.booked_count + c.held_count)::int AS active_count, ${SITE_MEMBERS}
  FROM rm_rooms r, (SELECT ${today}::date AS today, ${now}::timestamptz AS now) p,
    ${seatsTakenLateral('t.room_id = r.id AND t.date >= p.today', 'p.now')} c) AS rooms`;

/**
 * Whose answers a room query gives: the rooms as the derived table `rooms` (its parameters
 * `bindings`, written `$1, $2, ...` in SQL text or `?` in a knex query) and a row's answer.
 */
interface Audience<Row extends RoomRow, Answer> {
  rooms: (placeholders: 'text' | 'knex') => string;
  bindings: readonly string[];
  answer: (row: Row) => Answer;
}

/** Visitors: the rooms alone, no reservation counted. */
const VISITORS: Audience<RoomRow, Room> = {
  rooms: () => `(SELECT r.*, ${SITE_MEMBERS} FROM rm_rooms r) AS rooms`,
  bindings: [],
  answer: toRoom,
};

/** Staff: the rooms with their reservations from `today` on, holds as of `now`. */
const staffAsOf = (today: string, now: Date): Audience<StaffRoomRow, StaffRoom> => ({
  rooms: (placeholders) =>
    placeholders === 'text' ? staffRoomsAsOf('$1', '$2') : staffRoomsAsOf('?', '?'),
  bindings: [today, now.toISOString()],
  answer: toStaffRoom,
});

async function listRooms<Row extends RoomRow, Answer>(
  pool: Pool,
  audience: Audience<Row, Answer>,
  q: z.output<typeof ListQuery>,
  sites: readonly string[] | null = null,
) {
  const name = q.name?.trim();
  const term = q.term?.trim();
  const filtered = (query: Knex.QueryBuilder) => {
    query.from(sql.raw(audience.rooms('knex'), [...audience.bindings]));
    // A user whose roles are for some sites sees their rooms only (docs/product.md#roles).
    if (sites) query.whereIn('site_id', [...sites]);
    if (q.site !== undefined)
      query.whereRaw(`site_id IN ${siteIdOfSlug('?')}`, [slugOf(q.site), slugOf(q.site)]);
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
  const { rows, total } = await fetchPage<Row>(
    pool,
    '*',
    filtered,
    orderBy(q.sort, SORT_COLUMNS, [{ field: 'order', dir: 'ASC' }], [nameKey('name'), 'id']),
    q,
  );
  return { content: rows.map(audience.answer), totalCount: total };
}

async function getRoom<Row extends RoomRow, Answer>(
  pool: Pool,
  audience: Audience<Row, Answer>,
  id: string,
): Promise<Answer> {
  const r = await pool.query<Row>(
    `SELECT * FROM ${audience.rooms('text')} WHERE id = $${audience.bindings.length + 1}`,
    [...audience.bindings, id],
  );
  if (!r.rows[0]) throw problems.notFound('Room');
  return audience.answer(r.rows[0]);
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
  const sharedLists = new SharedAnswers<{ content: Room[]; totalCount: number }>(sharedReadMs ?? 0);
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
            listRooms(pool, VISITORS, query),
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
            getRoom(pool, VISITORS, params.id),
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
      responses: { 200: { description: 'A page of rooms', schema: StaffRoomPage } },
      handler: async ({ query, sites }) => ({
        body: await listRooms(pool, staffAsOf(today(), clock.now()), query, sites),
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
        200: { description: 'The room with its reservations', schema: StaffRoom },
        404: { description: 'No such room' },
      },
      handler: async ({ params }) => ({
        body: await getRoom(pool, staffAsOf(today(), clock.now()), params.id),
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
