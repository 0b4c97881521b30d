import { WEBHOOK_EVENT_TYPES, webhookInput, webhookUpdateInput } from '@rr/contracts';
import {
  defineRoute,
  fromContract,
  problems,
  z,
  type Role,
  type RouteDef,
  type SessionUser,
} from '@rr/platform';
import { WEBHOOK_DELIVERIES_LISTED, type WebhookStore } from './endpoints.ts';

// The staff's API of webhook endpoints (docs/product.md#integrations), over the WebhookStore.

const EndpointSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    eventTypes: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    description: z.string(),
    siteIds: z.array(z.uuid()).openapi({
      description: "The sites whose rooms' events it gets; empty: every site",
    }),
    createdBy: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    enabled: z.boolean(),
    disabledAt: z.string().nullable(),
    disabledReason: z.enum(['failing', 'staff']).nullable(),
    disabledDetail: z.string().nullable(),
    failingSince: z.string().nullable(),
  })
  .openapi('WebhookEndpoint');

const CreatedEndpointSchema = EndpointSchema.extend({
  secret: z.string().openapi({
    description: 'The signing secret (`whsec_…`, Standard Webhooks), answered this once only',
  }),
}).openapi('CreatedWebhookEndpoint');

const DeliverySchema = z
  .object({
    id: z.string().openapi({ description: 'The webhook-id header, the same on every attempt' }),
    eventType: z.enum(WEBHOOK_EVENT_TYPES),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.number().int(),
    createdAt: z.string(),
    nextAttemptAt: z.string().nullable(),
    lastAttemptAt: z.string().nullable(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    deliveredAt: z.string().nullable(),
    payload: z.string().openapi({ description: 'The body sent (JSON: type, timestamp, data)' }),
  })
  .openapi('WebhookDelivery');

const creatorOf = (user: SessionUser | undefined) =>
  user?.token ? `token:${user.token.name}` : (user?.username ?? '?');

const IdParams = z.object({ id: z.uuid('Not a valid id') });
const refusedDoc = {
  description:
    'The URL is refused (webhook__url_refused; payload: scheme, credentials, host, address or unresolvable, and a detail), or a site of `siteIds` is none (validation__error)',
};

/** The admin's routes of webhook endpoints: `reads` (GETs) and `writes`, as the API tokens'. */
export function webhookRoutes(store: WebhookStore) {
  const admin: Role[] = ['admin'];
  const noStore = { 'Cache-Control': 'no-store' };
  const reads: RouteDef[] = [
    defineRoute({
      method: 'get',
      path: '/admin/webhooks',
      summary: 'The webhook endpoints (never their secrets)',
      tags: ['webhooks'],
      access: admin,
      responses: { 200: { description: 'The endpoints', schema: z.array(EndpointSchema) } },
      handler: async () => ({ body: await store.list(), headers: noStore }),
    }),
    defineRoute({
      method: 'get',
      path: '/admin/webhooks/{id}',
      summary: 'One webhook endpoint',
      tags: ['webhooks'],
      access: admin,
      params: IdParams,
      responses: {
        200: { description: 'The endpoint', schema: EndpointSchema },
        404: { description: 'No such endpoint' },
      },
      handler: async ({ params }) => {
        const endpoint = await store.get(params.id);
        if (!endpoint) throw problems.notFound('Webhook');
        return { body: endpoint, headers: noStore };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/admin/webhooks/{id}/deliveries',
      summary: `The newest ${WEBHOOK_DELIVERIES_LISTED} deliveries of an endpoint: status, attempts, last answer`,
      tags: ['webhooks'],
      access: admin,
      params: IdParams,
      responses: {
        200: { description: 'The deliveries, newest first', schema: z.array(DeliverySchema) },
        404: { description: 'No such endpoint' },
      },
      handler: async ({ params }) => {
        const deliveries = await store.deliveries(params.id);
        if (!deliveries) throw problems.notFound('Webhook');
        return { body: deliveries, headers: noStore };
      },
    }),
  ];
  const writes: RouteDef[] = [
    defineRoute({
      method: 'post',
      path: '/admin/webhooks',
      summary: 'Register a webhook endpoint: its signing secret is answered this once',
      tags: ['webhooks'],
      access: admin,
      body: fromContract(webhookInput).openapi('WebhookInput'),
      responses: {
        201: { description: 'The endpoint with its secret', schema: CreatedEndpointSchema },
        400: refusedDoc,
      },
      handler: async ({ body, user }) => ({
        status: 201,
        body: await store.create({
          url: body.url,
          eventTypes: body.eventTypes,
          description: body.description ?? '',
          siteIds: body.siteIds ?? [],
          createdBy: creatorOf(user),
        }),
        headers: noStore,
      }),
    }),
    defineRoute({
      method: 'put',
      path: '/admin/webhooks/{id}',
      summary: 'Change a webhook endpoint; `enabled: true` switches a disabled one on again',
      tags: ['webhooks'],
      access: admin,
      params: IdParams,
      body: fromContract(webhookUpdateInput).openapi('WebhookUpdateInput'),
      responses: {
        200: { description: 'The endpoint', schema: EndpointSchema },
        400: refusedDoc,
        404: { description: 'No such endpoint' },
      },
      handler: async ({ params, body }) => {
        const endpoint = await store.update(params.id, {
          url: body.url,
          eventTypes: body.eventTypes,
          description: body.description ?? '',
          siteIds: body.siteIds ?? [],
          enabled: body.enabled,
        });
        if (!endpoint) throw problems.notFound('Webhook');
        return { body: endpoint, headers: noStore };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/admin/webhooks/{id}',
      summary: 'Delete a webhook endpoint and its deliveries',
      tags: ['webhooks'],
      access: admin,
      params: IdParams,
      responses: { 204: { description: 'Deleted' }, 404: { description: 'No such endpoint' } },
      handler: async ({ params }) => {
        if (!(await store.remove(params.id))) throw problems.notFound('Webhook');
        return { status: 204 };
      },
    }),
  ];
  return { reads, writes };
}
