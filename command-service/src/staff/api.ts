import { randomBytes, randomUUID } from 'node:crypto';
import {
  formatPosition,
  OwnerDataChanged,
  TicketAddedToTransaction,
  TicketBooked,
  TicketHeld,
  TransactionBooked,
  TransactionStarted,
  transactionStreamId,
  timeSlotStreamId,
  VisitorTicketsBooked,
  visitorStreamId,
  type Position,
} from '@rr/events';
import { normalizeEmail } from '@rr/domain';
import {
  defineRoute,
  messages,
  Problem,
  problems,
  z,
  type RouteDef,
  type SessionUser,
} from '@rr/platform';
import { actorOf, type CommandDeps } from '../deps.ts';
import { StaffBookingBody, StaffOwnerBody } from '../booking/owner.ts';
import { cancelOwnerTickets } from '../booking/cancel.ts';
import { newBookingNumber, newOwnerId } from '../booking/api.ts';
import { lockCartAndSlots, recordBooking, withRetry } from '../booking/store.ts';

const token = (p: Position | null) => (p ? formatPosition(p) : '0_0');
const Ids = z
  .string()
  .max(4000)
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.uuid('Not a valid id')).min(1, messages.required).max(100));

export function staffCommandRoutes(deps: CommandDeps): RouteDef[] {
  const { store, clock } = deps;
  const admin = (user: SessionUser | undefined) => actorOf(user);

  return [
    defineRoute({
      method: 'put',
      path: '/admin/tickets/{id}/owner',
      summary: "Change the owner data of a booked ticket's booking (audited as OwnerDataChanged)",
      tags: ['staff'],
      access: ['admin'],
      params: z.object({ id: z.uuid('Not a valid id') }),
      body: StaffOwnerBody,
      responses: {
        200: { description: 'Changed', schema: z.object({ position: z.string() }) },
        404: { description: 'No such ticket' },
        409: { description: 'ticket__not_booked or personal_data__erased' },
      },
      handler: async ({ params, body, user }) => {
        const { position } = await store.transaction(async (s) => {
          const t = await s.client.query<{
            owner_id: string | null;
            status: string;
            transaction_id: string;
          }>('SELECT owner_id, status, transaction_id FROM rm_tickets WHERE id = $1', [params.id]);
          const ticket = t.rows[0];
          if (!ticket) throw problems.notFound('Ticket');
          if (ticket.status !== 'BOOKED' || !ticket.owner_id)
            throw new Problem(409, 'ticket__not_booked', 'Only booked tickets can be edited');
          const updated = await s.client.query(
            `UPDATE personal_data SET salutation = $2, title = $3, first_name = $4, last_name = $5, organisation = $6,
                    email = coalesce($7, email), phone = $8, accessibility = $9 WHERE owner_id = $1`,
            [
              ticket.owner_id,
              body.salutation,
              body.title ?? null,
              body.firstName,
              body.lastName,
              body.organisation ?? null,
              body.email ? normalizeEmail(body.email) : null,
              body.phone ?? null,
              body.accessibility,
            ],
          );
          if (!updated.rowCount)
            throw new Problem(
              409,
              'personal_data__erased',
              'The personal data of this booking was erased',
            );
          await s.append(
            [
              {
                streamId: transactionStreamId(ticket.transaction_id),
                streamType: 'transaction',
                expectedVersion: 'stream_exists',
                events: [
                  OwnerDataChanged.create({ ownerId: ticket.owner_id, ticketId: params.id }),
                ],
              },
            ],
            { metadata: { actor: admin(user) } },
          );
        });
        return { body: { position: token(position) } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/admin/tickets',
      summary: 'Cancel booked tickets (only cancelable ones: their slot has not started)',
      tags: ['staff'],
      access: ['admin'],
      query: z.object({ ids: Ids }),
      responses: {
        200: {
          description: 'Cancelled',
          schema: z.object({ cancelled: z.number(), position: z.string() }),
        },
        404: { description: 'Unknown ticket' },
        409: { description: 'ticket__not_cancelable' },
      },
      handler: async ({ query, user }) => {
        const result = await withRetry(async () => {
          const { result, position } = await store.transaction(async (s) => {
            const r = await s.client.query<{ id: string; owner_id: string | null }>(
              'SELECT id, owner_id FROM rm_tickets WHERE id = ANY($1::uuid[])',
              [query.ids],
            );
            const byOwner = new Map<string, string[]>();
            for (const id of new Set(query.ids)) {
              const row = r.rows.find((x) => x.id === id);
              if (!row) throw problems.notFound('Ticket');
              if (!row.owner_id)
                throw new Problem(409, 'ticket__not_cancelable', 'The ticket is not booked');
              byOwner.set(row.owner_id, [...(byOwner.get(row.owner_id) ?? []), id]);
            }
            let n = 0;
            for (const [ownerId, ids] of [...byOwner].sort(([a], [b]) => (a < b ? -1 : 1)))
              n += await cancelOwnerTickets(s, deps, ownerId, ids, admin(user));
            return n;
          });
          return { cancelled: result, position: token(position) };
        });
        return { body: result };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/admin/rooms/{id}/timeslots/{timeSlotId}/booking',
      summary:
        'Staff book a person into a slot: allowed beyond capacity (shows as overbooked), audited as done by the admin',
      tags: ['staff'],
      access: ['admin'],
      params: z.object({ id: z.uuid('Not a valid id'), timeSlotId: z.uuid('Not a valid id') }),
      body: StaffBookingBody,
      responses: {
        201: {
          description: 'Booked',
          schema: z
            .object({
              ownerId: z.string(),
              bookingNumber: z.string(),
              ticketId: z.uuid(),
              position: z.string(),
            })
            .openapi('StaffBookingResult'),
        },
        404: { description: 'No such slot' },
      },
      handler: async ({ params, body, user }) => {
        const email = body.email ? normalizeEmail(body.email) : null;
        // Without an e-mail address the booking counts for no visitor (a random key).
        const visitorKey = email ? deps.emailKey(email) : randomBytes(20).toString('hex');
        const result = await withRetry(async () => {
          const ownerId = newOwnerId();
          const bookingNumber = newBookingNumber();
          const transactionId = randomUUID();
          const ticketId = randomUUID();
          const { position } = await store.transaction(async (s) => {
            const slot = (await lockCartAndSlots(s, null, [params.timeSlotId])).get(
              params.timeSlotId,
            )!;
            if (slot.status !== 'active' || slot.roomId !== params.id)
              throw problems.notFound('Time slot');
            const visitorVersion = (await s.lockStream(visitorStreamId(visitorKey))) ?? 0;
            const now = clock.now().toISOString();
            const ticket = {
              ticketId,
              timeSlotId: params.timeSlotId,
              roomId: slot.roomId,
              date: slot.date,
              startTime: slot.startTime,
              endTime: slot.endTime,
            };
            await s.append(
              [
                {
                  streamId: transactionStreamId(transactionId),
                  streamType: 'transaction',
                  expectedVersion: 'no_stream',
                  events: [
                    TransactionStarted.create({ transactionId, expiresAt: now }),
                    TicketAddedToTransaction.create({ ...ticket, expiresAt: now }),
                    TransactionBooked.create({
                      transactionId,
                      ownerId,
                      bookingNumber,
                      visitorKey,
                      language: body.language,
                      ticketIds: [ticketId],
                    }),
                  ],
                },
                {
                  streamId: timeSlotStreamId(params.timeSlotId),
                  streamType: 'timeslot',
                  expectedVersion: slot.version,
                  events: [
                    TicketHeld.create({
                      ticketId,
                      timeSlotId: params.timeSlotId,
                      transactionId,
                      expiresAt: now,
                    }),
                    TicketBooked.create({ ticketId, ownerId }),
                  ],
                },
                {
                  streamId: visitorStreamId(visitorKey),
                  streamType: 'visitor',
                  expectedVersion: visitorVersion === 0 ? 'no_stream' : visitorVersion,
                  events: [
                    VisitorTicketsBooked.create({
                      ownerId,
                      tickets: [
                        {
                          ticketId,
                          date: slot.date,
                          startTime: slot.startTime,
                          endTime: slot.endTime,
                        },
                      ],
                    }),
                  ],
                },
              ],
              { metadata: { actor: admin(user) } },
            );
            await recordBooking(s, {
              ownerId,
              transactionId,
              visitorKey,
              bookingNumber,
              language: body.language,
              owner: body,
              email,
              lastDate: slot.date,
            });
          });
          return { ownerId, bookingNumber, ticketId, position: token(position) };
        });
        return { status: 201, body: result };
      },
    }),
  ];
}
