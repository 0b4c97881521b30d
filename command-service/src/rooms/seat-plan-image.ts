import { randomUUID } from 'node:crypto';
import { defineRoute, problems, z, type RouteDef } from '@rr/platform';
import { actorOf, type CommandDeps } from '../deps.ts';
import { inspectSeatPlanImage } from './image.ts';
import { runSeatPlanCommand } from './stream.ts';
import { imageUpload } from './upload.ts';

/** The seat plan's image (docs/product.md#seat-plans): uploaded as multipart, or removed. */

const RoomParams = z.object({ roomId: z.uuid('Not a valid id') });
const PlanImageWritten = z.object({ position: z.string() });

export function seatPlanImageRoutes(deps: CommandDeps): RouteDef[] {
  const mb = Math.round((deps.seatPlans.imageBytes / 1_048_576) * 10) / 10;
  const parseUpload = imageUpload(deps.seatPlans.imageBytes, `The image is larger than ${mb} MB`);
  return [
    defineRoute({
      method: 'put',
      path: '/admin/rooms/{roomId}/seat-plan/image',
      summary:
        "Upload or replace the seat plan's image (PNG, JPEG or SVG by its content, named as what it is; at most SEAT_PLAN_IMAGE_MAX_BYTES, 2 MB by default)",
      tags: ['rooms'],
      access: ['admin'],
      sites: { path: { roomId: 'room' } },
      params: RoomParams,
      multipart: z.object({ image: z.string().openapi({ format: 'binary' }) }),
      responses: {
        200: { description: 'Stored', schema: PlanImageWritten },
        400: {
          description:
            'image__invalid_type (not PNG, JPEG or an SVG document, or named as another type), image__invalid, image__too_many_pixels, image__too_large; validation__error without an image',
        },
        404: { description: 'No such room' },
      },
      handler: async ({ params, req, res, user }) => {
        await parseUpload(req, res);
        const file = req.file;
        if (!file)
          throw problems.validation([
            { field: 'image', rule: 'required', message: 'Value is required' },
          ]);
        const image = await inspectSeatPlanImage(file.buffer, file.originalname);
        const { position } = await runSeatPlanCommand(
          deps,
          actorOf(user),
          {
            type: 'SetSeatPlanImage',
            data: { roomId: params.roomId, imageId: randomUUID(), size: file.size, ...image },
          },
          { contentType: image.contentType, bytes: file.buffer },
        );
        return { body: { position } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/admin/rooms/{roomId}/seat-plan/image',
      summary: "Remove the seat plan's image (the seats stay)",
      tags: ['rooms'],
      access: ['admin'],
      sites: { path: { roomId: 'room' } },
      params: RoomParams,
      responses: {
        200: { description: 'Removed (or there was none)', schema: PlanImageWritten },
        404: { description: 'No such room' },
      },
      handler: async ({ params, user }) => {
        const { position } = await runSeatPlanCommand(deps, actorOf(user), {
          type: 'RemoveSeatPlanImage',
          data: { roomId: params.roomId },
        });
        return { body: { position } };
      },
    }),
  ];
}
