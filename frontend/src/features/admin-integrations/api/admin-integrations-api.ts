import { baseApi } from '../../../api/base-api';
import type {
  ApiToken,
  ApiTokenInput,
  CreatedApiToken,
  CreatedWebhookEndpoint,
  SiteList,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookInput,
  WebhookUpdateInput,
} from '../../../api/types';

const TOKENS = { type: 'ApiToken', id: 'LIST' } as const;
const WEBHOOKS = { type: 'Webhook', id: 'LIST' } as const;

/** API tokens and webhook endpoints (docs/product.md#integrations), admin only. */
export const adminIntegrationsApi = baseApi
  .enhanceEndpoints({ addTagTypes: ['Site'] })
  .injectEndpoints({
    endpoints: (build) => ({
      /** The sites a token's role or a webhook may be limited to (docs/product.md#sites). */
      getIntegrationSites: build.query<SiteList, void>({
        query: () => 'admin/sites',
        // A site added, renamed or deleted in the site screens changes the choice.
        providesTags: [{ type: 'Site', id: 'LIST' }],
      }),
      getApiTokens: build.query<ApiToken[], void>({
        query: () => 'admin/api-tokens',
        providesTags: [TOKENS],
      }),
      /** Answers the secret, this once; 409 `api_token__name_taken`. */
      createApiToken: build.mutation<CreatedApiToken, ApiTokenInput>({
        query: (body) => ({ url: 'admin/api-tokens', method: 'POST', body }),
        invalidatesTags: [TOKENS],
      }),
      revokeApiToken: build.mutation<void, string>({
        query: (id) => ({ url: `admin/api-tokens/${id}`, method: 'DELETE' }),
        invalidatesTags: [TOKENS],
      }),
      getWebhooks: build.query<WebhookEndpoint[], void>({
        query: () => 'admin/webhooks',
        providesTags: [WEBHOOKS],
      }),
      getWebhook: build.query<WebhookEndpoint, string>({
        query: (id) => `admin/webhooks/${id}`,
        providesTags: (_result, _error, id) => [{ type: 'Webhook', id }],
      }),
      getWebhookDeliveries: build.query<WebhookDelivery[], string>({
        query: (id) => `admin/webhooks/${id}/deliveries`,
        providesTags: (_result, _error, id) => [{ type: 'Webhook', id: `${id}/deliveries` }],
      }),
      /** Answers the signing secret, this once; 400 `webhook__url_refused`. */
      createWebhook: build.mutation<CreatedWebhookEndpoint, WebhookInput>({
        query: (body) => ({ url: 'admin/webhooks', method: 'POST', body }),
        invalidatesTags: [WEBHOOKS],
      }),
      updateWebhook: build.mutation<WebhookEndpoint, { id: string; body: WebhookUpdateInput }>({
        query: ({ id, body }) => ({ url: `admin/webhooks/${id}`, method: 'PUT', body }),
        invalidatesTags: (_result, _error, { id }) => [WEBHOOKS, { type: 'Webhook', id }],
      }),
      deleteWebhook: build.mutation<void, string>({
        query: (id) => ({ url: `admin/webhooks/${id}`, method: 'DELETE' }),
        invalidatesTags: [WEBHOOKS],
      }),
    }),
  });

export const {
  useGetIntegrationSitesQuery,
  useGetApiTokensQuery,
  useCreateApiTokenMutation,
  useRevokeApiTokenMutation,
  useGetWebhooksQuery,
  useGetWebhookQuery,
  useGetWebhookDeliveriesQuery,
  useCreateWebhookMutation,
  useUpdateWebhookMutation,
  useDeleteWebhookMutation,
} = adminIntegrationsApi;
