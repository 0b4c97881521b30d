import { NoShowBlockKey } from '@rr/contracts';
import { defineRoute, fromContract, problems, todayIn, z, type RouteDef } from '@rr/platform';
import { actorOf, type CommandDeps } from '../deps.ts';
import { liftNoShowBlock, listNoShowBlocks } from './store.ts';

const NoShowBlock = z
  .object({
    key: z.string().openapi({ description: "The key of the address (the lift's path names it)" }),
    email: z
      .string()
      .nullable()
      .openapi({ description: 'The address as its latest booking stored it; null once erased' }),
    noShowDays: z.array(z.string()).openapi({ description: 'The release days the rule counts' }),
    blockedUntil: z.string().openapi({ description: 'The last blocked day' }),
  })
  .openapi('NoShowBlock');

/**
 * The staff's no-show blocks (docs/product.md#no-show-rule). Both live on the command side: the
 * rule's table is written with the events, beside the log, and is no read model.
 */
export function noShowCommandRoutes(deps: CommandDeps): RouteDef[] {
  const today = () => todayIn(deps.clock.now(), deps.timeZone);
  return [
    defineRoute({
      method: 'get',
      path: '/admin/no-show-blocks',
      summary: 'The addresses the no-show rule blocks now',
      tags: ['blacklist'],
      access: ['admin', 'reports'],
      responses: {
        200: {
          description: 'The blocks, the longest first (empty without the rule)',
          schema: z.object({ content: z.array(NoShowBlock) }).openapi('NoShowBlockList'),
        },
      },
      handler: async () => ({
        body: { content: await listNoShowBlocks(deps.pool, today(), deps.limits.noShowRule) },
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/admin/no-show-blocks/{key}',
      summary: "Lift a no-show block: the address's releases so far no longer count",
      tags: ['blacklist'],
      access: ['admin'],
      params: z.object({ key: fromContract(NoShowBlockKey) }),
      responses: {
        200: {
          description: 'Lifted',
          schema: z.object({ liftedThrough: z.string() }).openapi('NoShowBlockLifted'),
        },
        404: { description: 'The key is not blocked now' },
      },
      handler: async ({ params, user }) => {
        const lifted = await liftNoShowBlock(deps, params.key, actorOf(user));
        if (!lifted) throw problems.notFound('No-show block');
        return { body: lifted };
      },
    }),
  ];
}
