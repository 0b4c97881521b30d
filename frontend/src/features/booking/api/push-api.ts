import { baseApi } from '../../../api/base-api';
import type { components } from '../../../api/schema';

type Schemas = components['schemas'];
export type PushSubscriptionInput = Schemas['PushSubscriptionInput'];

const enc = encodeURIComponent;

/**
 * Reminders as notifications (docs/product.md#reminders): a browser's push subscription kept for
 * a booking's owner. Injected when the "my bookings" chunk loads, never in the first download.
 */
export const pushApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    subscribePushReminders: build.mutation<void, { ownerId: string; body: PushSubscriptionInput }>({
      query: ({ ownerId, body }) => ({
        url: `owners/${enc(ownerId)}/push-subscriptions`,
        method: 'POST',
        body,
      }),
    }),
    unsubscribePushReminders: build.mutation<void, { ownerId: string; endpoint: string }>({
      query: ({ ownerId, endpoint }) => ({
        url: `owners/${enc(ownerId)}/push-subscriptions`,
        method: 'DELETE',
        body: { endpoint },
      }),
    }),
  }),
});

export const { useSubscribePushRemindersMutation, useUnsubscribePushRemindersMutation } = pushApi;
