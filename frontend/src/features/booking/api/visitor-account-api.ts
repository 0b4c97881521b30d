import { baseApi } from '../../../api/base-api';
import type { components } from '../../../api/schema';

/** `GET visitor-auth/me`: the visitor signed in with the campus identity (401: nobody). */
export type SignedInVisitor = components['schemas']['SignedInVisitor'];

/**
 * The visitor's campus sign-in, injected by the lazily loaded sign-in part of the personal data
 * form (visitor-account.tsx), so a library without visitor sign-in never downloads it.
 */
export const visitorAccountApi = baseApi
  .enhanceEndpoints({ addTagTypes: ['Visitor', 'MyBookings'] })
  .injectEndpoints({
    endpoints: (build) => ({
      getSignedInVisitor: build.query<SignedInVisitor, void>({
        query: () => 'visitor-auth/me',
        providesTags: ['Visitor'],
      }),
      visitorSignOut: build.mutation<void, void>({
        query: () => ({ url: 'visitor-auth/logout', method: 'POST' }),
        // The signed-in visitor's bookings go with her.
        invalidatesTags: ['Visitor', 'MyBookings'],
      }),
    }),
  });

export const { useGetSignedInVisitorQuery, useVisitorSignOutMutation } = visitorAccountApi;
