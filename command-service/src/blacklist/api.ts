import {
  blacklistStreamId,
  formatPosition,
  type BlacklistEvent,
  type StoreSession,
} from '@rr/events';
import { normalizeEmail } from '@rr/domain';
import { BlacklistEmail, blacklistEntryInput, blacklistEntryUpdateInput } from '@rr/contracts';
import {
  defineRoute,
  fromContract,
  todayIn,
  z,
  type RouteDef,
  type SessionUser,
} from '@rr/platform';
import { actorOf, type CommandDeps } from '../deps.ts';
import {
  decideBlacklist,
  evolveBlacklist,
  initialBlacklistState,
  type BlacklistCommand,
  type BlacklistState,
} from './decider.ts';

export const emailField = fromContract(BlacklistEmail);

export async function loadBlacklistEntry(
  s: StoreSession,
  entryKey: string,
): Promise<BlacklistState> {
  const { events } = await s.readStream(blacklistStreamId(entryKey));
  return events.reduce(
    (st, e) => evolveBlacklist(st, e as unknown as BlacklistEvent),
    initialBlacklistState,
  );
}

export function blacklistCommandRoutes(deps: CommandDeps): RouteDef[] {
  const { store, clock, timeZone, emailKey } = deps;
  // Spec section 5, blacklist: the contracts' rules, "in the future" from the clock's today.
  const today = () => todayIn(clock.now(), timeZone);
  const AddBody = fromContract(blacklistEntryInput(today)).openapi('BlacklistEntryInput');
  const ChangeBody = fromContract(blacklistEntryUpdateInput(today)).openapi(
    'BlacklistEntryUpdateInput',
  );
  const EmailParams = z.object({ email: emailField });
  const PositionOnly = z.object({ position: z.string() });

  async function execute(
    user: SessionUser | undefined,
    email: string,
    command: (entryKey: string) => BlacklistCommand,
    after: (s: StoreSession, entryKey: string) => Promise<void>,
  ) {
    const entryKey = emailKey(email);
    const { position } = await store.transaction(async (s) => {
      const streamId = blacklistStreamId(entryKey);
      await s.lockStream(streamId);
      const state = await loadBlacklistEntry(s, entryKey);
      const events = decideBlacklist(command(entryKey), state);
      await s.append(
        [
          {
            streamId,
            streamType: 'blacklist',
            expectedVersion: state.version === 0 ? 'no_stream' : state.version,
            events,
          },
        ],
        {
          metadata: { actor: actorOf(user) },
        },
      );
      await after(s, entryKey);
    });
    return position ? formatPosition(position) : '0_0';
  }

  return [
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
        const position = await execute(
          user,
          email,
          (entryKey) => ({
            type: 'AddEntry',
            data: { entryKey, expiredAt: body.expiredAt, description: body.description },
          }),
          async (s, entryKey) => {
            await s.client.query(
              'INSERT INTO blacklist_emails (entry_key, email) VALUES ($1, $2) ON CONFLICT (entry_key) DO UPDATE SET email = EXCLUDED.email',
              [entryKey, email],
            );
          },
        );
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
        const position = await execute(
          user,
          normalizeEmail(params.email),
          (entryKey) => ({
            type: 'ChangeEntry',
            data: { entryKey, expiredAt: body.expiredAt, description: body.description },
          }),
          () => Promise.resolve(),
        );
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
        const position = await execute(
          user,
          normalizeEmail(params.email),
          (entryKey) => ({ type: 'RemoveEntry', data: { entryKey } }),
          async (s, entryKey) => {
            await s.client.query('DELETE FROM blacklist_emails WHERE entry_key = $1', [entryKey]);
          },
        );
        return { body: { position } };
      },
    }),
  ];
}
