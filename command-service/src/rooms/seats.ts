import { randomUUID } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { MAX_SEATS_PER_ROOM, OutOfServiceInput, SeatsInput } from '@rr/contracts/seats';
import type { SeatSetting } from '@rr/domain';
import {
  defineRoute,
  fromContract,
  parseOrThrow,
  problems,
  SeatAnswer,
  seatAnswerOf,
  seatsFromCsv,
  z,
  type RouteDef,
  type SessionUser,
} from '@rr/platform';
import { actorOf, type CommandDeps } from '../deps.ts';
import { runSeatPlanCommand, runSetRoomSeats } from './stream.ts';
import { vacateSeatOnDays } from './seat-moves.ts';
import { seatPlanImageRoutes } from './seat-plan-image.ts';

/**
 * A room's seat plan as staff set it (docs/product.md#seat-plans): its seats, as JSON or as
 * `seats.csv`, and the ranges of days seats are out of service.
 */

const SeatsBody = fromContract(SeatsInput).openapi('SeatsInput');
const OutOfServiceBody = fromContract(OutOfServiceInput).openapi('OutOfServiceInput');
const RoomParams = z.object({ roomId: z.uuid('Not a valid id') });
const SeatsSet = z
  .object({ seats: z.array(SeatAnswer), position: z.string() })
  .openapi('SeatsSet', { description: 'The seats with their ids, in the order set' });

export function seatPlanCommandRoutes(deps: CommandDeps): RouteDef[] {
  const setSeats = async (
    user: SessionUser | undefined,
    roomId: string,
    body: z.output<typeof SeatsBody>,
  ) => {
    const seats: SeatSetting[] = body.seats.map((s) => ({ ...s, seatId: randomUUID() }));
    const { plan, position } = await runSetRoomSeats(deps, actorOf(user), {
      type: 'SetRoomSeats',
      data: { roomId, seats },
    });
    return { body: { seats: plan.seats.map(seatAnswerOf), position } };
  };
  const readCsv = csvBodyReader(deps.seatPlans.bodyBytes);
  const answers = {
    200: { description: 'Set (or unchanged)', schema: SeatsSet },
    400: {
      description:
        'validation__error: a seat breaks a rule (field `seats.N.label` etc., N from 0; rule unique: a label used twice)',
    },
    404: { description: 'No such room' },
    409: {
      description:
        "timeslot__seats_in_use: a booking or waitlist offer of a slot not yet ended holds a seat that leaves the plan, and no seat of the new plan is free for it; payload 'seats' and their labels",
    },
  };
  return [
    defineRoute({
      method: 'put',
      path: '/admin/rooms/{roomId}/seats',
      summary: `Set the seats of a room's plan (all of them, at most ${MAX_SEATS_PER_ROOM}; a seat keeps its id by its label; none: no plan)`,
      tags: ['rooms'],
      access: ['admin'],
      sites: { path: { roomId: 'room' } },
      params: RoomParams,
      body: SeatsBody,
      bodyLimit: deps.seatPlans.bodyBytes,
      responses: answers,
      handler: ({ params, body, user }) => setSeats(user, params.roomId, body),
    }),
    defineRoute({
      method: 'put',
      path: '/admin/rooms/{roomId}/seats.csv',
      summary:
        "Set the seats of a room's plan from a spreadsheet (text/csv, UTF-8, header row: label;zone;attributes;x;y;rotation;notes; seat N is the N-th row after the header, from 0)",
      tags: ['rooms'],
      access: ['admin'],
      sites: { path: { roomId: 'room' } },
      params: RoomParams,
      responses: {
        ...answers,
        400: {
          description:
            'validation__error: the file cannot be read (field `csv`) or a seat breaks a rule (field `seats.N.label` etc., N from 0)',
        },
        413: { description: 'Larger than SEAT_PLAN_MAX_BODY_BYTES' },
      },
      handler: async ({ params, req, res, user }) => {
        const read = seatsFromCsv(await readCsv(req, res), MAX_SEATS_PER_ROOM);
        if (!read.ok) throw problems.validation(read.errors);
        return setSeats(user, params.roomId, parseOrThrow(SeatsBody, { seats: read.seats }));
      },
    }),
    ...outOfServiceRoutes(deps),
    ...seatPlanImageRoutes(deps),
  ];
}

/** The raw bytes of a `text/csv` body, at most `limit` (else 413, as every large body). */
function csvBodyReader(limit: number) {
  const raw = express.raw({ type: () => true, limit });
  return (req: Request, res: Response) =>
    new Promise<Buffer>((resolve, reject) => {
      if (!req.is(['text/csv', 'text/plain']))
        return reject(problems.badRequest('validation__error', 'Send text/csv'));
      raw(req, res, (err?: Error) => {
        if (err) return reject(err);
        resolve(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
      });
    });
}

function outOfServiceRoutes(deps: CommandDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/admin/rooms/{roomId}/seats/{seatId}/out-of-service',
      summary:
        'Take a seat out of service from one day to another (both included), with a reason; its tickets on those days are moved or cancelled',
      tags: ['rooms'],
      access: ['admin'],
      sites: { path: { roomId: 'room' } },
      params: RoomParams.extend({ seatId: z.uuid('Not a valid id') }),
      body: OutOfServiceBody,
      responses: {
        201: {
          description: 'Recorded',
          schema: z
            .object({
              id: z.uuid(),
              /** Tickets moved to another seat of the same kind. */
              moved: z.number().int(),
              /** Bookings cancelled with the reason (no seat of the kind was free). */
              cancelled: z.number().int(),
              position: z.string(),
            })
            .openapi('OutOfServiceTaken'),
        },
        400: { description: 'validation__error: a date or the reason breaks its rule' },
        404: { description: 'No such room, or no such seat on its plan' },
      },
      handler: async ({ params, body, user }) => {
        const id = randomUUID();
        const actor = actorOf(user);
        const range = { roomId: params.roomId, seatId: params.seatId, ...body };
        const recorded = await runSeatPlanCommand(deps, actor, {
          type: 'TakeSeatOutOfService',
          data: { ...range, outOfServiceId: id },
        });
        // Then its tickets on those days move to a free seat of the same kind, or are cancelled.
        const { moved, cancelled, position } = await vacateSeatOnDays(deps, actor, range);
        return {
          status: 201,
          body: { id, moved, cancelled, position: position ?? recorded.position },
        };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/admin/rooms/{roomId}/seats/out-of-service/{id}',
      summary: 'End a range of days a seat is out of service: it serves again',
      tags: ['rooms'],
      access: ['admin'],
      sites: { path: { roomId: 'room' } },
      params: RoomParams.extend({ id: z.uuid('Not a valid id') }),
      responses: {
        204: { description: 'Ended' },
        404: { description: 'No such room or range' },
      },
      handler: async ({ params, user }) => {
        await runSeatPlanCommand(deps, actorOf(user), {
          type: 'ReturnSeatToService',
          data: { roomId: params.roomId, outOfServiceId: params.id },
        });
        return { status: 204 };
      },
    }),
  ];
}
