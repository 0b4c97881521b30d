import { FIRST_SITE_ID } from '@rr/contracts/sites';
import {
  handlersFor,
  roomOrderStream,
  roomStream,
  sitesStream,
  type SiteDetails,
  appliedBy,
  type Projection,
  type Step,
} from '@rr/events';
import type { PoolClient } from '@rr/platform';

/** A site's row: created, or changed (the first site's first event is a change). */
async function recordSite(
  client: PoolClient,
  d: SiteDetails,
  version: number,
  at: Date,
): Promise<void> {
  await client.query(
    `INSERT INTO rm_sites (id, version, slug, name, name_en, contact_email, address, phone,
                           mail_signature, created_at, sign_in_required, allowed_affiliations,
                           open_start, open_end)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT (id) DO UPDATE SET version = excluded.version, slug = excluded.slug,
       name = excluded.name, name_en = excluded.name_en, contact_email = excluded.contact_email,
       address = excluded.address, phone = excluded.phone, mail_signature = excluded.mail_signature,
       sign_in_required = excluded.sign_in_required, allowed_affiliations = excluded.allowed_affiliations,
       open_start = excluded.open_start, open_end = excluded.open_end`,
    [
      d.siteId,
      version,
      d.slug,
      d.name,
      d.nameEn ?? null,
      d.contactEmail,
      d.address ?? null,
      d.phone ?? null,
      d.mailSignature ?? null,
      at,
      d.signInRequired === true,
      d.allowedAffiliations?.length ? d.allowedAffiliations : null,
      d.openStart ?? null,
      d.openEnd ?? null,
    ],
  );
}

/**
 * The rooms, their images, services and seat plans, in the manual order, and the sites they
 * belong to, with their hours and logos.
 */
const rooms = handlersFor(roomStream, roomOrderStream, sitesStream).with<PoolClient, Step>({
  async SiteCreated(e, client) {
    await recordSite(client, e.data, 1, e.createdAt);
  },
  async SiteUpdated(e, client) {
    const r = await client.query<{ version: number }>(
      'SELECT version FROM rm_sites WHERE id = $1',
      [e.data.siteId],
    );
    await recordSite(client, e.data, (r.rows[0]?.version ?? 0) + 1, e.createdAt);
  },
  async SiteDeleted(e, client) {
    await client.query('DELETE FROM rm_sites WHERE id = $1', [e.data.siteId]);
    await client.query('DELETE FROM rm_site_profile WHERE site_id = $1', [e.data.siteId]);
  },
  // A site's hours and logo: a row of their own (the first site has none in rm_sites until its
  // details change).
  async SiteHoursSet(e, client) {
    const { siteId, ...hours } = e.data;
    await client.query(
      `INSERT INTO rm_site_profile (site_id, hours) VALUES ($1, $2)
       ON CONFLICT (site_id) DO UPDATE SET hours = excluded.hours`,
      [siteId, hours],
    );
  },
  async SiteLogoSet(e, client) {
    const d = e.data;
    await client.query(
      `INSERT INTO rm_site_profile (site_id, logo_id, logo_type, logo_sha256) VALUES ($1, $2, $3, $4)
       ON CONFLICT (site_id) DO UPDATE SET logo_id = excluded.logo_id,
         logo_type = excluded.logo_type, logo_sha256 = excluded.logo_sha256`,
      [d.siteId, d.logoId, d.contentType, d.sha256],
    );
  },
  async SiteLogoRemoved(e, client) {
    await client.query(
      'UPDATE rm_site_profile SET logo_id = NULL, logo_type = NULL, logo_sha256 = NULL WHERE site_id = $1',
      [e.data.siteId],
    );
  },
  async RoomCreated(e, client) {
    const d = e.data;
    await client.query(
      `INSERT INTO rm_rooms (id, version, name, description, capacity, open_start_type, open_start_value,
         open_end_type, open_end_value, sort_order, created_at, name_en, description_en, site_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, (SELECT coalesce(max(sort_order) + 1, 0) FROM rm_rooms), $10, $11, $12, $13)
       ON CONFLICT (id) DO NOTHING`,
      [
        d.roomId,
        e.streamVersion,
        d.name,
        d.description,
        d.capacity,
        d.openStart?.type ?? null,
        d.openStart?.value ?? null,
        d.openEnd?.type ?? null,
        d.openEnd?.value ?? null,
        e.createdAt,
        d.nameEn ?? null,
        d.descriptionEn ?? null,
        d.siteId ?? FIRST_SITE_ID,
      ],
    );
  },
  async RoomUpdated(e, client) {
    const d = e.data;
    await client.query(
      `UPDATE rm_rooms SET version = $2, name = $3, description = $4, capacity = $5, open_start_type = $6,
         open_start_value = $7, open_end_type = $8, open_end_value = $9, name_en = $10,
         description_en = $11, site_id = $12 WHERE id = $1`,
      [
        d.roomId,
        e.streamVersion,
        d.name,
        d.description,
        d.capacity,
        d.openStart?.type ?? null,
        d.openStart?.value ?? null,
        d.openEnd?.type ?? null,
        d.openEnd?.value ?? null,
        d.nameEn ?? null,
        d.descriptionEn ?? null,
        d.siteId ?? FIRST_SITE_ID,
      ],
    );
  },
  async RoomDeleted(e, client) {
    await client.query('DELETE FROM rm_rooms WHERE id = $1', [e.data.roomId]);
    // A deleted room's plan goes with it (its tickets keep their seats' labels).
    await client.query('DELETE FROM rm_seats WHERE room_id = $1', [e.data.roomId]);
    await client.query('DELETE FROM rm_seat_out_of_service WHERE room_id = $1', [e.data.roomId]);
  },
  async RoomImageSet(e, client) {
    await client.query(
      'UPDATE rm_rooms SET version = $2, image_id = $3, image_alt = $4, image_alt_en = $5 WHERE id = $1',
      [e.data.roomId, e.streamVersion, e.data.imageId, e.data.alt, e.data.altEn ?? null],
    );
  },
  async RoomImageAltChanged(e, client) {
    await client.query(
      'UPDATE rm_rooms SET version = $2, image_alt = $3, image_alt_en = $4 WHERE id = $1',
      [e.data.roomId, e.streamVersion, e.data.alt, e.data.altEn ?? null],
    );
  },
  async RoomImageRemoved(e, client) {
    await client.query(
      'UPDATE rm_rooms SET version = $2, image_id = NULL, image_alt = NULL, image_alt_en = NULL WHERE id = $1',
      [e.data.roomId, e.streamVersion],
    );
  },
  async RoomServicesChanged(e, client) {
    const { roomId, ...services } = e.data;
    await client.query('UPDATE rm_rooms SET version = $2, services = $3 WHERE id = $1', [
      roomId,
      e.streamVersion,
      services,
    ]);
  },
  async RoomSeatsSet(e, client) {
    const { roomId, seats } = e.data;
    await client.query('UPDATE rm_rooms SET version = $2 WHERE id = $1', [roomId, e.streamVersion]);
    await client.query('DELETE FROM rm_seats WHERE room_id = $1', [roomId]);
    if (seats.length === 0) return;
    await client.query(
      `INSERT INTO rm_seats (room_id, id, position, label, zone, attributes, notes, x, y, rotation)
       SELECT $1, s.id, s.position - 1, s.label, s.zone, ARRAY(SELECT jsonb_array_elements_text(s.attributes)),
              s.notes, s.x, s.y, s.rotation
         FROM ROWS FROM (jsonb_to_recordset($2::jsonb)
                AS (id uuid, label text, zone text, attributes jsonb, notes text, x real, y real, rotation integer))
              WITH ORDINALITY AS s(id, label, zone, attributes, notes, x, y, rotation, position)`,
      [roomId, JSON.stringify(seats.map(({ seatId, ...seat }) => ({ id: seatId, ...seat })))],
    );
  },
  async SeatTakenOutOfService(e, client) {
    const d = e.data;
    await client.query('UPDATE rm_rooms SET version = $2 WHERE id = $1', [
      d.roomId,
      e.streamVersion,
    ]);
    await client.query(
      `INSERT INTO rm_seat_out_of_service (id, room_id, seat_id, from_date, until, reason)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
      [d.outOfServiceId, d.roomId, d.seatId, d.from, d.until, d.reason],
    );
  },
  async SeatBackInService(e, client) {
    const d = e.data;
    await client.query('UPDATE rm_rooms SET version = $2 WHERE id = $1', [
      d.roomId,
      e.streamVersion,
    ]);
    await client.query('DELETE FROM rm_seat_out_of_service WHERE id = $1', [d.outOfServiceId]);
  },
  async RoomSeatPlanImageSet(e, client) {
    const d = e.data;
    await client.query(
      `UPDATE rm_rooms SET version = $2, seat_plan_image_id = $3, seat_plan_image_type = $4,
         seat_plan_image_width = $5, seat_plan_image_height = $6 WHERE id = $1`,
      [d.roomId, e.streamVersion, d.imageId, d.contentType, d.width ?? null, d.height ?? null],
    );
  },
  async RoomSeatPlanImageRemoved(e, client) {
    await client.query(
      `UPDATE rm_rooms SET version = $2, seat_plan_image_id = NULL, seat_plan_image_type = NULL,
         seat_plan_image_width = NULL, seat_plan_image_height = NULL WHERE id = $1`,
      [e.data.roomId, e.streamVersion],
    );
  },
  async RoomOrderChanged(e, client) {
    // Listed rooms take their index; rooms created meanwhile keep their relative order after them.
    await client.query(
      `WITH listed AS (SELECT id, (idx - 1)::int AS pos FROM unnest($1::uuid[]) WITH ORDINALITY AS o(id, idx)),
            others AS (SELECT r.id, (cardinality($1::uuid[]) + row_number() OVER (ORDER BY r.sort_order, r.name, r.id) - 1)::int AS pos
                         FROM rm_rooms r WHERE r.id <> ALL($1::uuid[]))
       UPDATE rm_rooms r SET sort_order = x.pos FROM (SELECT * FROM listed UNION ALL SELECT * FROM others) x WHERE r.id = x.id`,
      [e.data.roomIds],
    );
  },
});

export const roomsProjection: Projection = {
  name: 'rooms',
  derivedOnly: true,
  tables: ['rm_rooms', 'rm_seats', 'rm_seat_out_of_service', 'rm_sites', 'rm_site_profile'],
  ...appliedBy(rooms),
};
