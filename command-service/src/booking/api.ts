import { randomBytes, randomUUID } from 'node:crypto';
import {
  formatPosition,
  timeSlotStreamId,
  transactionStreamId,
  visitorStreamId,
  type AppendRequest,
  type NewEvent,
  type Position,
  type StoreSession,
} from '@rr/events';
import { isOpenForBooking, normalizeEmail, roomBookingWindow } from '@rr/domain';
import { addDays, defineRoute, messages, Problem, todayIn, z, type RouteDef } from '@rr/platform';
import type { CommandDeps } from '../deps.ts';
import { blocks } from '../blacklist/decider.ts';
import { loadBlacklistEntry } from '../blacklist/api.ts';
import { evolveSlot, type SlotEvent, type SlotState } from '../timeslots/decider.ts';
import {
  decideAddTicket,
  decideBook,
  decideRemoveTicket,
  decideRemoveTransaction,
  decideTouch,
  initialTransaction,
  type Decision,
  type TransactionState,
} from './decider.ts';
import {
  recordBooking,
  decisionRequests,
  loadVisitor,
  lockCartAndSlots,
  lockCartWithSlots,
  rememberCart,
  withRetry,
} from './store.ts';
import { VisitorOwnerBody } from './owner.ts';
import { cancelOwnerTickets } from './cancel.ts';
import { SlotQueue, type Outcome } from './slot-queue.ts';

/** What a cart command knows of the rooms involved. */
interface CartRooms {
  names: Map<string, string>;
  isOpen(slot: SlotState): boolean;
}

const token = (p: Position | null) => (p ? formatPosition(p) : '0_0');
const TicketCreation = z.object({ timeSlotId: z.uuid('Not a valid id') }).openapi('TicketCreation');
const TxParams = z.object({ transactionId: z.uuid('Not a valid id') });
const CartTicket = z
  .object({
    id: z.uuid(),
    timeSlotId: z.uuid(),
    roomId: z.uuid(),
    roomName: z.string(),
    date: z.string(),
    startTime: z.string(),
    endTime: z.string(),
    status: z.string(),
  })
  .openapi('CartTicket');
const CartAnswer = z
  .object({
    transactionId: z.uuid(),
    expiredAt: z.string(),
    ticket: CartTicket.optional(),
    tickets: z.array(CartTicket),
    position: z.string(),
  })
  .openapi('CartAnswer');

/** Booking numbers: short, unambiguous (no 0/O, 1/I), searchable by staff; owner ids stay 128-bit random. */
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export function newBookingNumber(): string {
  const bytes = randomBytes(6);
  return `R-${[...bytes].map((b) => ALPHABET[b % 32]).join('')}`;
}
export const newOwnerId = () => randomBytes(16).toString('hex');

export function bookingCommandRoutes(deps: CommandDeps): RouteDef[] {
  const { store, clock, timeZone, limits } = deps;

  async function roomNames(s: StoreSession, roomIds: string[]): Promise<Map<string, string>> {
    const r = await s.client.query<{ id: string; name: string }>(
      'SELECT id, name FROM rm_rooms WHERE id = ANY($1::uuid[])',
      [roomIds],
    );
    return new Map(r.rows.map((row) => [row.id, row.name]));
  }

  /**
   * The rooms a cart command needs, in one round trip: their names (for the answer) and whether
   * a slot's date lies in its room's booking window (room settings and holidays: staff data).
   */
  async function loadRooms(s: StoreSession, roomIds: string[]): Promise<CartRooms> {
    const today = todayIn(clock.now(), timeZone);
    const r = await s.client.query<{
      id: string;
      name: string;
      open_start_type: 'DAY' | 'WORKING_DAY';
      open_start_value: number;
      open_end_type: 'DAY' | 'WORKING_DAY';
      open_end_value: number;
      holidays: string[];
    }>(
      `SELECT id, name, open_start_type, open_start_value, open_end_type, open_end_value,
              ARRAY(SELECT DISTINCT date::text FROM rm_holidays WHERE date BETWEEN $2 AND $3) AS holidays
         FROM rm_rooms WHERE id = ANY($1::uuid[])`,
      [[...new Set(roomIds)], today, addDays(today, 800)],
    );
    const rooms = new Map(r.rows.map((row) => [row.id, row]));
    return {
      names: new Map(r.rows.map((row) => [row.id, row.name])),
      isOpen(slot: SlotState): boolean {
        const room = rooms.get(slot.roomId);
        return !!room && isOpenForBooking(slot.date, roomBookingWindow(today, room));
      },
    };
  }

  function cartAnswer(
    names: Map<string, string>,
    cart: TransactionState,
    decision: Decision,
    ticketId?: string,
  ) {
    const tickets = [...cart.tickets];
    for (const e of decision.transaction) {
      if (e.type === 'TicketAddedToTransaction') tickets.push(e.data as (typeof tickets)[number]);
      if (e.type === 'TicketRemovedFromTransaction')
        tickets.splice(
          tickets.findIndex((t) => t.ticketId === (e.data as { ticketId: string }).ticketId),
          1,
        );
    }
    const expiry = decision.transaction
      .map((e) => (e.data as { expiresAt?: string }).expiresAt)
      .filter((x): x is string => !!x);
    const view = tickets.map((t) => ({
      id: t.ticketId,
      timeSlotId: t.timeSlotId,
      roomId: t.roomId,
      roomName: names.get(t.roomId) ?? '',
      date: t.date,
      startTime: t.startTime,
      endTime: t.endTime,
      status: 'NEW',
    }));
    return {
      expiredAt: expiry[expiry.length - 1] ?? cart.expiresAt ?? '',
      tickets: view,
      ticket: view.find((t) => t.id === ticketId),
    };
  }

  /** Load the cart and the slots it touches under lock, decide, append in one transaction. */
  async function runCart(
    transactionId: string,
    extraSlot: string | null,
    decide: (cart: TransactionState, slots: Map<string, SlotState>, rooms: CartRooms) => Decision,
    ticketId?: string,
  ) {
    return withRetry(async () => {
      const { result, position } = await store.transaction(async (s) => {
        const { cart, slots } = await lockCartWithSlots(
          s,
          transactionId,
          extraSlot ? [extraSlot] : [],
        );
        const rooms = await loadRooms(s, [
          ...cart.tickets.map((t) => t.roomId),
          ...[...slots.values()].map((slot) => slot.roomId).filter((id) => id !== ''),
        ]);
        const decision = decide(cart, slots, rooms);
        await s.append(decisionRequests(transactionId, cart.version, decision, slots), {
          metadata: { actor: { kind: 'visitor' } },
        });
        return { cart, decision, answer: cartAnswer(rooms.names, cart, decision, ticketId) };
      });
      rememberCart(store, transactionId, result.cart, result.decision);
      return { transactionId, ...result.answer, position: token(position) };
    });
  }

  type CartResult = Awaited<ReturnType<typeof runCart>>;

  /**
   * New carts, each holding its first ticket in the same slot, decided in one transaction (see
   * SlotQueue): in arrival order, each against the slot as the earlier ones left it. Each cart
   * keeps a correlation id of its own.
   */
  async function newCarts(timeSlotId: string, count: number): Promise<Outcome<CartResult>[]> {
    return withRetry(async () => {
      const carts = Array.from({ length: count }, () => ({
        transactionId: randomUUID(),
        ticketId: randomUUID(),
        correlationId: randomUUID(),
      }));
      const { result, position } = await store.transaction(async (s) => {
        const start = (await lockCartAndSlots(s, null, [timeSlotId])).get(timeSlotId)!;
        const rooms = await loadRooms(s, start.status === 'none' ? [] : [start.roomId]);
        const open = start.status === 'active' && rooms.isOpen(start);
        const now = clock.now();
        let slot = start;
        const requests: AppendRequest[] = [];
        const held: NewEvent[] = [];
        const outcomes: Outcome<Omit<CartResult, 'position'>>[] = [];
        const started: { transactionId: string; decision: Decision }[] = [];
        for (const c of carts) {
          let decision: Decision;
          try {
            decision = decideAddTicket(
              initialTransaction,
              { transactionId: c.transactionId, ticketId: c.ticketId, slot, timeSlotId, open },
              now,
              limits,
            );
          } catch (err) {
            if (!(err instanceof Problem)) throw err;
            outcomes.push({ err });
            continue;
          }
          const tag = (e: NewEvent): NewEvent => ({
            ...e,
            metadata: { ...e.metadata, correlationId: c.correlationId },
          });
          requests.push({
            streamId: transactionStreamId(c.transactionId),
            streamType: 'transaction',
            expectedVersion: 'no_stream',
            events: decision.transaction.map(tag),
          });
          for (const e of decision.slots.get(timeSlotId) ?? []) {
            held.push(tag(e));
            slot = evolveSlot(slot, e as unknown as SlotEvent);
          }
          started.push({ transactionId: c.transactionId, decision });
          outcomes.push({
            ok: {
              transactionId: c.transactionId,
              ...cartAnswer(rooms.names, initialTransaction, decision, c.ticketId),
            },
          });
        }
        if (held.length) {
          requests.push({
            streamId: timeSlotStreamId(timeSlotId),
            streamType: 'timeslot',
            expectedVersion: start.version,
            events: held,
          });
        }
        if (requests.length) await s.append(requests, { metadata: { actor: { kind: 'visitor' } } });
        return { outcomes, started };
      });
      for (const c of result.started)
        rememberCart(store, c.transactionId, initialTransaction, c.decision);
      return result.outcomes.map((o) =>
        'ok' in o ? { ok: { ...o.ok, position: token(position) } } : o,
      );
    });
  }

  const slotQueue = new SlotQueue<CartResult>(newCarts);
  const addTicket = (transactionId: string, timeSlotId: string) => {
    const ticketId = randomUUID();
    return slotQueue.run(timeSlotId, () =>
      runCart(
        transactionId,
        timeSlotId,
        (cart, slots, rooms) => {
          const slot = slots.get(timeSlotId)!;
          const open = slot.status === 'active' && rooms.isOpen(slot);
          return decideAddTicket(
            cart,
            { transactionId, ticketId, slot, timeSlotId, open },
            clock.now(),
            limits,
          );
        },
        ticketId,
      ),
    );
  };

  return [
    defineRoute({
      method: 'post',
      path: '/transactions',
      summary: 'Create a reservation cart holding its first ticket (human check when configured)',
      tags: ['visitor'],
      access: 'public',
      query: z.object({ 'g-recaptcha-response': z.string().max(4000).optional() }),
      body: TicketCreation,
      responses: {
        201: { description: 'Cart created', schema: CartAnswer },
        409: { description: 'ticket__validation_error with the rule as payload' },
      },
      handler: async ({ body, query }) => {
        if (!(await deps.verifyHuman(query['g-recaptcha-response']))) {
          throw new Problem(400, 'recaptcha__validation_error', 'The human check failed');
        }
        return { status: 201, body: await slotQueue.newCart(body.timeSlotId) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/transactions/{transactionId}/tickets',
      summary: 'Add a ticket (hold a seat) to the cart',
      tags: ['visitor'],
      access: 'public',
      params: TxParams,
      body: TicketCreation,
      responses: {
        201: { description: 'Added', schema: CartAnswer },
        404: { description: 'No such cart' },
        409: { description: 'Refused: ticket__validation_error, transaction__expired' },
      },
      handler: async ({ params, body }) => ({
        status: 201,
        body: await addTicket(params.transactionId, body.timeSlotId),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/transactions/{transactionId}/tickets/{ticketId}',
      summary: 'Remove a ticket from the cart (frees its seat)',
      tags: ['visitor'],
      access: 'public',
      params: TxParams.extend({ ticketId: z.uuid('Not a valid id') }),
      responses: {
        200: { description: 'Removed', schema: CartAnswer },
        404: { description: 'No such cart or ticket' },
      },
      handler: async ({ params }) => ({
        body: await runCart(params.transactionId, null, (cart) =>
          decideRemoveTicket(cart, params.ticketId, clock.now()),
        ),
      }),
    }),
    defineRoute({
      method: 'put',
      path: '/transactions/{transactionId}/touch',
      summary: 'Keep the cart alive: its holds last another hold period',
      tags: ['visitor'],
      access: 'public',
      params: TxParams,
      responses: {
        200: { description: 'Touched', schema: CartAnswer },
        409: { description: 'transaction__expired' },
      },
      handler: async ({ params }) => ({
        body: await runCart(params.transactionId, null, (cart) =>
          decideTouch(cart, clock.now(), limits),
        ),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/transactions/{transactionId}',
      summary: 'Remove the cart and free every seat it holds (also the panic button)',
      tags: ['visitor'],
      access: 'public',
      params: TxParams,
      responses: {
        200: { description: 'Removed', schema: z.object({ position: z.string() }) },
        404: { description: 'No such cart' },
      },
      handler: async ({ params }) => {
        const r = await runCart(params.transactionId, null, (cart) =>
          decideRemoveTransaction(cart),
        );
        return { body: { position: r.position } };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/transactions/{transactionId}/booking',
      summary:
        'Book the cart with the owner data; per-visitor limits and the blacklist are decided in the same transaction',
      tags: ['visitor'],
      access: 'public',
      params: TxParams,
      body: VisitorOwnerBody,
      responses: {
        200: {
          description: 'Booked',
          schema: z
            .object({
              ownerId: z.string(),
              bookingNumber: z.string(),
              tickets: z.array(CartTicket),
              position: z.string(),
            })
            .openapi('BookingResult'),
        },
        400: { description: 'validation__error' },
        403: { description: 'booking__email_blacklisted' },
        409: { description: 'ticket__validation_error (per-visitor limits), transaction__expired' },
      },
      handler: async ({ params, body }) => {
        const email = normalizeEmail(body.email);
        const visitorKey = deps.emailKey(email);
        const result = await withRetry(async () => {
          const ownerId = newOwnerId();
          const bookingNumber = newBookingNumber();
          const { result, position } = await store.transaction(async (s) => {
            const { cart, slots } = await lockCartWithSlots(s, params.transactionId, []);
            const visitorVersion = (await s.lockStream(visitorStreamId(visitorKey))) ?? 0;
            const visitor = await loadVisitor(s, visitorKey);
            const now = clock.now();
            const today = todayIn(now, timeZone);
            const blacklisted = blocks(await loadBlacklistEntry(s, visitorKey), today);
            const decision = decideBook(
              cart,
              visitor,
              {
                ownerId,
                bookingNumber,
                visitorKey,
                language: body.language,
                today,
                blacklisted,
                slots,
              },
              now,
              limits,
            );
            await s.append(
              [
                ...decisionRequests(params.transactionId, cart.version, decision, slots),
                {
                  streamId: visitorStreamId(visitorKey),
                  streamType: 'visitor',
                  expectedVersion: visitorVersion === 0 ? 'no_stream' : visitorVersion,
                  events: decision.visitor,
                },
              ],
              { metadata: { actor: { kind: 'visitor' } } },
            );
            const lastDate = cart.tickets
              .map((t) => t.date)
              .sort()
              .at(-1)!;
            await recordBooking(s, {
              ownerId,
              transactionId: params.transactionId,
              visitorKey,
              bookingNumber,
              language: body.language,
              owner: body,
              email,
              lastDate,
            });
            const names = await roomNames(
              s,
              cart.tickets.map((t) => t.roomId),
            );
            return cart.tickets.map((t) => ({
              id: t.ticketId,
              timeSlotId: t.timeSlotId,
              roomId: t.roomId,
              roomName: names.get(t.roomId) ?? '',
              date: t.date,
              startTime: t.startTime,
              endTime: t.endTime,
              status: 'BOOKED',
            }));
          });
          return { ownerId, bookingNumber, tickets: result, position: token(position) };
        });
        return { body: result };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/owners/{ownerId}/tickets',
      summary:
        'Cancel booked tickets of an owner (the link in the confirmation mail); only tickets whose slot has not started',
      tags: ['visitor'],
      access: 'public',
      params: z.object({ ownerId: z.string().regex(/^[0-9a-f]{32}$/, 'Not a valid id') }),
      query: z.object({
        ids: z
          .string()
          .max(2000)
          .transform((s) =>
            s
              .split(',')
              .map((x) => x.trim())
              .filter(Boolean),
          )
          .pipe(z.array(z.uuid('Not a valid id')).min(1, messages.required).max(50)),
      }),
      responses: {
        200: {
          description: 'Cancelled',
          schema: z.object({ cancelled: z.number(), position: z.string() }),
        },
        404: { description: 'Unknown owner or ticket' },
        409: { description: 'ticket__not_cancelable' },
      },
      handler: async ({ params, query }) => {
        const result = await withRetry(async () => {
          const { result, position } = await store.transaction((s) =>
            cancelOwnerTickets(s, deps, params.ownerId, query.ids, { kind: 'visitor' }),
          );
          return { cancelled: result, position: token(position) };
        });
        return { body: result };
      },
    }),
  ];
}
