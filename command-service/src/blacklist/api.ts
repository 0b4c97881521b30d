import {
  emailDomainOf,
  bookingPersonRefusal,
  limitsKeyOf,
  normalizeEmail,
  type BlacklistCommand,
  type RoomState,
} from '@rr/domain';
import {
  BlacklistEmail,
  blacklistEntryInput,
  blacklistEntryUpdateInput,
  VisitorEmailCheckInput,
} from '@rr/contracts';
import {
  defineRoute,
  fromContract,
  todayIn,
  z,
  type RouteDef,
  type SessionUser,
} from '@rr/platform';
import { actorOf, type CommandDeps } from '../deps.ts';
import { readBlacklistEntry, runBlacklistCommand } from './stream.ts';
import { loadNoShowDays, personKeysOf } from '../booking/store.ts';
import { loadTransaction } from '../streams/transaction.ts';
import { roomStates } from '../write-state.ts';

export const emailField = fromContract(BlacklistEmail);

export function blacklistCommandRoutes(deps: CommandDeps): RouteDef[] {
  const { clock, timeZone } = deps;
  // Blacklist (docs/product.md#validation): the contracts' rules, "in the future" from the clock's today.
  const today = () => todayIn(clock.now(), timeZone);
  const AddBody = fromContract(blacklistEntryInput(today)).openapi('BlacklistEntryInput');
  const ChangeBody = fromContract(blacklistEntryUpdateInput(today)).openapi(
    'BlacklistEntryUpdateInput',
  );
  const EmailParams = z.object({ email: emailField });
  const PositionOnly = z.object({ position: z.string() });

  const execute = (
    user: SessionUser | undefined,
    email: string,
    command: (entryKey: string) => BlacklistCommand,
  ) => runBlacklistCommand(deps, actorOf(user), email, command);

  const CheckBody = fromContract(VisitorEmailCheckInput).openapi('VisitorEmailCheckInput');

  return [
    defineRoute({
      method: 'post',
      path: '/email-check',
      summary:
        "Whether an address may book, asked when the visitor enters it: the booking's own refusal (the blacklist, by the address's key), before the last step",
      tags: ['visitor'],
      access: 'public',
      body: CheckBody,
      responses: {
        204: { description: 'The address may book' },
        400: { description: 'validation__error' },
        403: {
          description:
            'booking__email_blacklisted, booking__no_show_blocked (payload: `until` and the last blocked day), booking__email_domain_not_allowed (a room of the cart; payload: `domains` and the domains it admits), booking__sign_in_required, booking__affiliation_not_allowed (payload: `affiliations` and those the room admits)',
        },
      },
      handler: async ({ body, req }) => {
        // The blacklist by the address, the no-show days by whom the limits count (a signed-in
        // visitor's subject): as the booking's loader reads them (loadPerson).
        const keys = personKeysOf(deps, body.email, req.signedInVisitor ?? null);
        const blacklist = await readBlacklistEntry(deps.store, keys.visitorKey);
        const noShows = await loadNoShowDays(deps.pool, limitsKeyOf(keys), deps.limits.noShowRule);
        const { transactionId } = body;
        const rooms = transactionId
          ? (
              await deps.store.transaction(async (s) => {
                const cart = await loadTransaction(s, transactionId);
                return roomStates(
                  s.client,
                  cart.tickets.map((t) => t.roomId),
                );
              })
            ).result
          : new Map<string, RoomState>();
        // The person rules of the booking's one decision (take-seat.ts), asked ahead of it.
        const refusal = bookingPersonRefusal(
          [...rooms.values()],
          {
            held: [],
            blacklist,
            noShows,
            emailDomain: emailDomainOf(body.email),
            member: req.signedInVisitor ?? null,
          },
          { today: today(), limits: deps.limits },
        );
        if (refusal) throw refusal;
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/admin/blacklist',
      summary: 'Block an e-mail address from booking until a date',
      tags: ['blacklist'],
      access: ['admin'],
      body: AddBody,
      responses: {
        201: { description: 'Added', schema: PositionOnly },
        409: { description: 'blacklist__email_already_exists' },
      },
      handler: async ({ body, user }) => {
        const email = normalizeEmail(body.email);
        const position = await execute(user, email, (entryKey) => ({
          type: 'AddEntry',
          data: { entryKey, expiredAt: body.expiredAt, description: body.description },
        }));
        return { status: 201, body: { position } };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/admin/blacklist/{email}',
      summary: 'Change an entry: a removal followed by an addition, in one append',
      tags: ['blacklist'],
      access: ['admin'],
      params: EmailParams,
      body: ChangeBody,
      responses: {
        200: { description: 'Changed', schema: PositionOnly },
        404: { description: 'No such entry' },
      },
      handler: async ({ params, body, user }) => {
        const position = await execute(user, normalizeEmail(params.email), (entryKey) => ({
          type: 'ChangeEntry',
          data: { entryKey, expiredAt: body.expiredAt, description: body.description },
        }));
        return { body: { position } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/admin/blacklist/{email}',
      summary: 'Remove an entry (the address is deleted with it)',
      tags: ['blacklist'],
      access: ['admin'],
      params: EmailParams,
      responses: {
        200: { description: 'Removed', schema: PositionOnly },
        404: { description: 'No such entry' },
      },
      handler: async ({ params, user }) => {
        const position = await execute(user, normalizeEmail(params.email), (entryKey) => ({
          type: 'RemoveEntry',
          data: { entryKey },
        }));
        return { body: { position } };
      },
    }),
  ];
}
