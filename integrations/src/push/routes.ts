import { pushSubscriptionInput, pushUnsubscribeInput } from '@rr/contracts';
import { defineRoute, fromContract, ownerIdParam, problems, z, type RouteDef } from '@rr/platform';
import type { PushSubscriptionStore } from './subscriptions.ts';

// A visitor's browsers that show the booking's reminders as notifications (docs/product.md#reminders),
// by the owner id of the booking's links, like the owner's other routes.

const OwnerParams = z.object({ ownerId: ownerIdParam });

/** The routes of push subscriptions: writes, on the primary. */
export function pushSubscriptionRoutes(store: PushSubscriptionStore): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/owners/{ownerId}/push-subscriptions',
      summary:
        "Show the booking's reminders as notifications in this browser: its PushSubscription as JSON (the same endpoint again takes its new keys)",
      tags: ['visitor'],
      access: 'public',
      params: OwnerParams,
      body: fromContract(pushSubscriptionInput).openapi('PushSubscriptionInput'),
      responses: {
        201: { description: 'Kept' },
        400: {
          description:
            'validation__error, or push__endpoint_refused (payload: scheme, credentials, host, address or unresolvable, and a detail)',
        },
        404: {
          description:
            'Unknown or malformed owner id, its personal data erased, or web push not configured',
        },
        409: { description: 'push__subscriptions_limit: the owner has the most devices already' },
      },
      malformedPathNotFound: 'Owner',
      handler: async ({ params, body }) => {
        await store.subscribe(params.ownerId, body);
        return { status: 201 };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/owners/{ownerId}/push-subscriptions',
      summary: 'No more notifications in this browser: the subscription of this endpoint ends',
      tags: ['visitor'],
      access: 'public',
      params: OwnerParams,
      body: fromContract(pushUnsubscribeInput).openapi('PushUnsubscribeInput'),
      responses: {
        204: { description: 'Ended' },
        404: { description: 'No subscription of this endpoint for this owner' },
      },
      malformedPathNotFound: 'Owner',
      handler: async ({ params, body }) => {
        if (!(await store.unsubscribe(params.ownerId, body.endpoint)))
          throw problems.notFound('Subscription');
        return { status: 204 };
      },
    }),
  ];
}
