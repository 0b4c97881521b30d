import { randomUUID } from 'node:crypto';
import multer from 'multer';
import type { Request, Response } from 'express';
import { ROOM_ORDER_STREAM, roomStreamId, type NewEvent, type StoreSession } from '@rr/events';
import {
  decideRoom,
  decideRoomOrder,
  evolveRoom,
  initialRoomState,
  type RoomCommand,
  type RoomCommandState,
  type RoomState,
} from '@rr/domain';
import { RoomImageAlt, RoomInput, RoomServicesInput } from '@rr/contracts';
import {
  todayIn,
  defineRoute,
  fromContract,
  parseOrThrow,
  Problem,
  problems,
  z,
  type RouteDef,
  type SessionUser,
} from '@rr/platform';
import { actorOf, type CommandDeps } from '../deps.ts';
import { foldStream, handleCommand, streamAppend } from '../command.ts';
import { roomOrder } from '../write-state.ts';
import { lockCartAndSlots } from '../booking/store.ts';
import { inspectRoomImage, MAX_IMAGE_BYTES } from './image.ts';

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
const AltBody = z.object({ alt: fromContract(RoomImageAlt) });
const ServicesBody = fromContract(RoomServicesInput).openapi('RoomServicesInput');

export async function loadRoom(s: StoreSession, roomId: string): Promise<RoomState> {
  const { events } = await s.readStream(roomStreamId(roomId));
  return foldStream(events, evolveRoom, initialRoomState);
}

export function roomCommandRoutes(deps: CommandDeps): RouteDef[] {
  const { store, clock, timeZone } = deps;

  /**
   * The room's stream is locked and folded. A deletion also reads the room's slots from today on
   * (their streams, under lock: the room's stream row is locked first, so no slot can be added
   * meanwhile): held or booked tickets block it.
   */
  async function load(s: StoreSession, command: RoomCommand): Promise<RoomCommandState> {
    const roomId = command.data.roomId;
    await s.lockStream(roomStreamId(roomId));
    const room = await loadRoom(s, roomId);
    if (command.type !== 'DeleteRoom' || room.status !== 'active')
      return { room, slotsFromToday: [] };
    const r = await s.client.query<{ id: string }>(
      'SELECT time_slot_id AS id FROM timeslot_guard WHERE room_id = $1 AND date >= $2',
      [roomId, todayIn(clock.now(), timeZone)],
    );
    const slots = await lockCartAndSlots(
      s,
      null,
      r.rows.map((x) => x.id),
    );
    return { room, slotsFromToday: [...slots.values()] };
  }

  const execute = async (
    user: SessionUser | undefined,
    command: RoomCommand,
    record?: (s: StoreSession) => Promise<void>,
  ) => {
    const roomId = command.data.roomId;
    const { answer, position } = await handleCommand(store, {
      actor: actorOf(user),
      load: (s) => load(s, command),
      decide: (state) => decideRoom(command, state, { now: clock.now() }),
      appends: (events, state) =>
        streamAppend(roomStreamId(roomId), 'room', state.room.version, events),
      // Rows beside the log (the image's bytes) change only when the room did.
      record: async (s: StoreSession, events: NewEvent[]) => {
        if (record && events.length) await record(s);
      },
      answer: (events, state) => state.room.version + events.length,
    });
    return { id: roomId, version: answer, position };
  };

  const details = (roomId: string, b: z.output<typeof RoomBody>) => ({
    roomId,
    name: b.name,
    description: b.description,
    capacity: b.capacity,
    openStart: { type: b.openStartType, value: b.openStartValue },
    openEnd: { type: b.openEndType, value: b.openEndValue },
  });

  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 5, fieldSize: 2000 },
  });
  const parseUpload = (req: Request, res: Response) =>
    new Promise<void>((resolve, reject) =>
      upload.single('image')(req, res, (err: unknown) => {
        if (!err) return resolve();
        const code = (err as { code?: string }).code;
        if (code === 'LIMIT_FILE_SIZE')
          return reject(new Problem(400, 'image__too_large', 'The image is larger than 0.5 MB'));
        reject(problems.badRequest('validation__error', 'The upload is not valid'));
      }),
    );

  return [
    defineRoute({
      method: 'post',
      path: '/admin/rooms',
      summary: 'Create a room',
      tags: ['rooms'],
      access: ['admin'],
      body: RoomBody,
      responses: { 201: { description: 'Created', schema: Written } },
      handler: async ({ body, user }) => {
        const id = randomUUID();
        return {
          status: 201,
          body: await execute(user, { type: 'CreateRoom', data: details(id, body) }),
        };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/admin/rooms/{id}',
      summary: 'Update a room (optimistic: version must be the current one)',
      tags: ['rooms'],
      access: ['admin'],
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
      params: IdParams,
      responses: {
        200: { description: 'Deleted', schema: PositionOnly },
        404: { description: 'No such room' },
        409: { description: 'Has active reservations; payload[0] is the count' },
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
      params: z.object({
        id: z.uuid('Not a valid id'),
        order: z.coerce.number().int().min(0).max(9999),
      }),
      responses: {
        200: { description: 'Reordered', schema: PositionOnly },
        404: { description: 'No such room' },
      },
      handler: async ({ params, user }) => {
        const command = {
          type: 'MoveRoom',
          data: { roomId: params.id, index: params.order },
        } as const;
        const { position } = await handleCommand(store, {
          actor: actorOf(user),
          // The order stream is locked (reorders queue); the rooms and their order are the
          // write side's room_state, moved with the room events.
          load: async (s) => ({
            version: (await s.lockStream(ROOM_ORDER_STREAM)) ?? 0,
            roomIds: await roomOrder(s.client),
          }),
          decide: (state) => decideRoomOrder(command, state, null),
          appends: (events, state) =>
            streamAppend(ROOM_ORDER_STREAM, 'room-order', state.version, events),
          answer: () => null,
        });
        return { body: { position } };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/admin/rooms/{id}/services',
      summary:
        'Set the reading-room services of a room (check-in, no-show release, waitlist, reminders); a missing or null field turns one off',
      tags: ['rooms'],
      access: ['admin'],
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
          },
        }),
      }),
    }),
    defineRoute({
      method: 'put',
      path: '/admin/rooms/{id}/image',
      summary:
        'Upload or replace the room image (JPEG/PNG, at most 0.5 MB and 40 megapixels) and/or change its alt text',
      tags: ['rooms'],
      access: ['admin'],
      params: IdParams,
      multipart: z.object({
        image: z.string().openapi({ format: 'binary' }).optional(),
        alt: z.string(),
      }),
      responses: {
        200: { description: 'Stored', schema: PositionOnly },
        404: { description: 'No such room' },
      },
      handler: async ({ params, req, res, user }) => {
        if (!req.is('multipart/form-data'))
          throw problems.badRequest('validation__error', 'Send multipart/form-data');
        await parseUpload(req, res);
        const fields = (req.body ?? {}) as Record<string, unknown>;
        const alt = parseOrThrow(AltBody, { alt: fields.alt }).alt;
        const file = req.file;
        if (!file) {
          const written = await execute(user, {
            type: 'ChangeRoomImageAlt',
            data: { roomId: params.id, alt },
          });
          return { body: { position: written.position } };
        }
        const { contentType } = await inspectRoomImage(file.buffer);
        const imageId = randomUUID();
        const written = await execute(
          user,
          {
            type: 'SetRoomImage',
            data: { roomId: params.id, imageId, contentType, size: file.size, alt },
          },
          async (s) => {
            await s.client.query('DELETE FROM room_images WHERE room_id = $1', [params.id]);
            await s.client.query(
              'INSERT INTO room_images (image_id, room_id, content_type, bytes) VALUES ($1, $2, $3, $4)',
              [imageId, params.id, contentType, file.buffer],
            );
          },
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
      params: IdParams,
      responses: {
        200: { description: 'Removed', schema: PositionOnly },
        404: { description: 'No such room' },
      },
      handler: async ({ params, user }) => {
        const written = await execute(
          user,
          { type: 'RemoveRoomImage', data: { roomId: params.id } },
          async (s) => {
            await s.client.query('DELETE FROM room_images WHERE room_id = $1', [params.id]);
          },
        );
        return { body: { position: written.position } };
      },
    }),
  ];
}
