import { blacklistStreamId, type StoreSession } from '@rr/events';
import {
  decideBlacklist,
  evolveBlacklist,
  initialBlacklistState,
  normalizeEmail,
  type BlacklistCommand,
  type BlacklistState,
} from '@rr/domain';
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
import { foldStream, handleCommand, streamAppend } from '../command.ts';

export const emailField = fromContract(BlacklistEmail);

export async function loadBlacklistEntry(
  s: StoreSession,
  entryKey: string,
): Promise<BlacklistState> {
  const { events } = await s.readStream(blacklistStreamId(entryKey));
  return foldStream(events, evolveBlacklist, initialBlacklistState);
}

export function blacklistCommandRoutes(deps: CommandDeps): RouteDef[] {
  const { store, clock, timeZone, emailKey } = deps;
  // Blacklist (docs/product.md#validation): the contracts' rules, "in the future" from the clock's today.
  const today = () => todayIn(clock.now(), timeZone);
  const AddBody = fromContract(blacklistEntryInput(today)).openapi('BlacklistEntryInput');
  const ChangeBody = fromContract(blacklistEntryUpdateInput(today)).openapi(
    'BlacklistEntryUpdateInput',
  );
  const EmailParams = z.object({ email: emailField });
  const PositionOnly = z.object({ position: z.string() });

  /** The entry's stream is locked and folded; the address itself lives beside it (`after`). */
  async function execute(
    user: SessionUser | undefined,
    email: string,
    command: (entryKey: string) => BlacklistCommand,
    after: (s: StoreSession, entryKey: string) => Promise<void>,
  ) {
    const entryKey = emailKey(email);
    const streamId = blacklistStreamId(entryKey);
    const { position } = await handleCommand(store, {
      actor: actorOf(user),
      load: async (s) => {
        await s.lockStream(streamId);
        return loadBlacklistEntry(s, entryKey);
      },
      decide: (state) => decideBlacklist(command(entryKey), state, null),
      appends: (events, state) => streamAppend(streamId, 'blacklist', state.version, events),
      record: (s) => after(s, entryKey),
      answer: () => null,
    });
    return position;
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
