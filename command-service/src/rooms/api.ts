import { randomUUID } from 'node:crypto';
import type { RoomCommand } from '@rr/domain';
import {
  FIRST_SITE_ID,
  openBoundsOf,
  RoomImageAlt,
  RoomImageAltEn,
  RoomInput,
  RoomServicesInput,
} from '@rr/contracts';
import {
  defineRoute,
  fromContract,
  parseOrThrow,
  z,
  type RouteDef,
  type SessionUser,
} from '@rr/platform';
import { actorOf, type CommandDeps } from '../deps.ts';
import { runRoomCommand, runRoomOrderCommand, type RoomImageBytes } from './stream.ts';
import { inspectRoomImage, MAX_IMAGE_BYTES } from './image.ts';
import { imageUpload } from './upload.ts';
import { seatPlanCommandRoutes } from './seats.ts';

// Room and room image (docs/product.md#validation): the rules are the contracts' (shared with the browser).
export const RoomBody = fromContract(RoomInput).openapi('RoomInput');
const RoomUpdateBody = RoomBody.extend({ version: z.number().int().min(1) }).openapi(
  'RoomUpdateInput',
);
const IdParams = z.object({ id: z.uuid('Not a valid id') });
const Written = z
  .object({ id: z.uuid(), version: z.number(), position: z.string() })
  .openapi('RoomWritten');
const PositionOnly = z.object({ position: z.string() }).openapi('Position');
const AltBody = z.object({
  alt: fromContract(RoomImageAlt),
  altEn: fromContract(RoomImageAltEn),
});
const ServicesBody = fromContract(RoomServicesInput).openapi('RoomServicesInput');

export function roomCommandRoutes(deps: CommandDeps): RouteDef[] {
  const execute = executor(deps);
  return [
    ...roomRoutes(deps, execute),
    ...roomImageRoutes(execute),
    ...seatPlanCommandRoutes(deps),
  ];
}

/** Runs a room command as the signed-in user, with the image's bytes when it stores one. */
function executor(deps: CommandDeps) {
  return (user: SessionUser | undefined, command: RoomCommand, image?: RoomImageBytes) =>
    runRoomCommand(deps, actorOf(user), command, image);
}
type Execute = ReturnType<typeof executor>;

const details = (roomId: string, b: z.output<typeof RoomBody>) => ({
  roomId,
  // Without a site, a new room joins the first site and an updated one stays where it is.
  ...(b.siteId ? { siteId: b.siteId } : {}),
  name: b.name,
  // Left out while empty: the event of a room without translations stays as it was.
  ...(b.nameEn ? { nameEn: b.nameEn } : {}),
  description: b.description,
  ...(b.descriptionEn ? { descriptionEn: b.descriptionEn } : {}),
  capacity: b.capacity,
  // A bound left out is none of the room's own: its site's, else the default, applies.
  ...openBoundsOf(b),
});

/** The room itself: its details, its place in the order, its services. */
function roomRoutes(deps: CommandDeps, execute: Execute): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/admin/rooms',
      summary: 'Create a room',
      tags: ['rooms'],
      access: ['admin'],
      sites: { body: { siteId: 'site-or-first' } },
      body: RoomBody,
      responses: { 201: { description: 'Created', schema: Written } },
      handler: async ({ body, user }) => {
        const id = randomUUID();
        return {
          status: 201,
          body: await execute(user, {
            type: 'CreateRoom',
            data: { siteId: FIRST_SITE_ID, ...details(id, body) },
          }),
        };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/admin/rooms/{id}',
      summary: 'Update a room (optimistic: version must be the current one)',
      tags: ['rooms'],
      access: ['admin'],
      sites: { path: { id: 'room' }, body: { siteId: 'site' } },
      params: IdParams,
      body: RoomUpdateBody,
      responses: {
        200: { description: 'Updated', schema: Written },
        404: { description: 'No such room' },
        409: { description: 'Stale version' },
      },
      handler: async ({ params, body, user }) => ({
        body: await execute(user, {
          type: 'UpdateRoom',
          data: { ...details(params.id, body), expectedVersion: body.version },
        }),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/admin/rooms/{id}',
      summary: 'Delete a room (refused while it has active reservations)',
      tags: ['rooms'],
      access: ['admin'],
      sites: { path: { id: 'room' } },
      params: IdParams,
      responses: {
        200: { description: 'Deleted', schema: PositionOnly },
        404: { description: 'No such room' },
        409: {
          description:
            "room__has_active_reservations; payload 'seats', the count, booked, held, the end of the last hold (empty without holds)",
        },
      },
      handler: async ({ params, user }) => {
        const written = await execute(user, { type: 'DeleteRoom', data: { roomId: params.id } });
        return { body: { position: written.position } };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/admin/rooms/{id}/order/{order}',
      summary: 'Move a room to a 0-based position in the manual order',
      tags: ['rooms'],
      access: ['admin'],
      sites: { path: { id: 'room' } },
      params: z.object({
        id: z.uuid('Not a valid id'),
        order: z.coerce.number().int().min(0).max(9999),
      }),
      responses: {
        200: { description: 'Reordered', schema: PositionOnly },
        404: { description: 'No such room' },
      },
      handler: async ({ params, user }) => {
        const position = await runRoomOrderCommand(deps, actorOf(user), {
          type: 'MoveRoom',
          data: { roomId: params.id, index: params.order },
        });
        return { body: { position } };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/admin/rooms/{id}/services',
      summary:
        'Set the reading-room services of a room (check-in, no-show release, waitlist, reminders, members-only e-mail domains, confirmed addresses); a missing or null field turns one off',
      tags: ['rooms'],
      access: ['admin'],
      sites: { path: { id: 'room' } },
      params: IdParams,
      body: ServicesBody,
      responses: {
        200: { description: 'Set (or unchanged)', schema: Written },
        404: { description: 'No such room' },
      },
      handler: async ({ params, body, user }) => ({
        body: await execute(user, {
          type: 'ChangeRoomServices',
          data: {
            roomId: params.id,
            checkInMinutesBefore: body.checkInMinutesBefore ?? null,
            noShowReleaseMinutes: body.noShowReleaseMinutes ?? null,
            waitlistOfferMinutes: body.waitlistOfferMinutes ?? null,
            reminderHoursBefore: body.reminderHoursBefore ?? null,
            // Left out while everyone is admitted: the event of a room without it stays as it was.
            ...(body.allowedEmailDomains?.length
              ? { allowedEmailDomains: [...new Set(body.allowedEmailDomains)] }
              : {}),
            // Left out while off, as the members-only domains.
            ...(body.confirmBookingMinutes != null
              ? { confirmBookingMinutes: body.confirmBookingMinutes }
              : {}),
            ...(body.signInRequired ? { signInRequired: true } : {}),
            ...(body.allowedAffiliations?.length
              ? { allowedAffiliations: [...new Set(body.allowedAffiliations)] }
              : {}),
          },
        }),
      }),
    }),
  ];
}

/** The room's image: uploaded with its alt text as multipart, or removed. */
function roomImageRoutes(execute: Execute): RouteDef[] {
  const parseUpload = imageUpload(MAX_IMAGE_BYTES, 'The image is larger than 0.5 MB');

  return [
    defineRoute({
      method: 'put',
      path: '/admin/rooms/{id}/image',
      summary:
        'Upload or replace the room image (JPEG/PNG, at most 0.5 MB and 40 megapixels) and/or change its alt text',
      tags: ['rooms'],
      access: ['admin'],
      sites: { path: { id: 'room' } },
      params: IdParams,
      multipart: z.object({
        image: z.string().openapi({ format: 'binary' }).optional(),
        alt: z.string(),
        altEn: z.string().optional().openapi({
          description: "The alt text's English translation (5-150 characters); empty: none",
        }),
      }),
      responses: {
        200: { description: 'Stored', schema: PositionOnly },
        404: { description: 'No such room' },
      },
      handler: async ({ params, req, res, user }) => {
        await parseUpload(req, res);
        const fields = (req.body ?? {}) as Record<string, unknown>;
        const { alt, altEn } = parseOrThrow(AltBody, { alt: fields.alt, altEn: fields.altEn });
        const texts = { alt, ...(altEn ? { altEn } : {}) };
        const file = req.file;
        if (!file) {
          const written = await execute(user, {
            type: 'ChangeRoomImageAlt',
            data: { roomId: params.id, ...texts },
          });
          return { body: { position: written.position } };
        }
        const { contentType } = await inspectRoomImage(file.buffer);
        const written = await execute(
          user,
          {
            type: 'SetRoomImage',
            data: {
              roomId: params.id,
              imageId: randomUUID(),
              contentType,
              size: file.size,
              ...texts,
            },
          },
          { contentType, bytes: file.buffer },
        );
        return { body: { position: written.position } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/admin/rooms/{id}/image',
      summary: 'Remove the room image',
      tags: ['rooms'],
      access: ['admin'],
      sites: { path: { id: 'room' } },
      params: IdParams,
      responses: {
        200: { description: 'Removed', schema: PositionOnly },
        404: { description: 'No such room' },
      },
      handler: async ({ params, user }) => {
        const written = await execute(user, {
          type: 'RemoveRoomImage',
          data: { roomId: params.id },
        });
        return { body: { position: written.position } };
      },
    }),
  ];
}
