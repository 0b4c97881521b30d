import { baseApi } from '../../../api/base-api';
import type { Credentials, Me, SessionState, SignInProviders } from '../../../api/types';

export const ROLE_ADMIN = 'admin';
export const ROLE_REPORTS = 'reports';
/** Staff who only check readers in (the check-in screen only). */
export const ROLE_CHECKIN = 'checkin';

export const authApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /**
     * The signed-in user, or null when signed out. Asks GET session, which answers 200 either
     * way, so loading the sign-in page logs no failed request (GET auth/me would answer 401).
     */
    getMe: build.query<Me | null, void>({
      query: () => 'session',
      transformResponse: (state: SessionState) => state.user,
      providesTags: ['Auth'],
    }),
    login: build.mutation<Me, Credentials>({
      query: (body) => ({ url: 'auth/login', method: 'POST', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          // Nothing cached for the previous user survives a sign-in.
          dispatch(baseApi.util.resetApiState());
          await dispatch(authApi.util.upsertQueryData('getMe', undefined, data));
        } catch {
          // the form shows the error
        }
      },
    }),
    /** The sign-in buttons of the campus identity providers (none without one). */
    getSignInProviders: build.query<SignInProviders, void>({
      query: () => 'auth/providers',
    }),
    /**
     * Signs out; after a sign-in with an OpenID provider the answer names the provider's
     * end-session page, where the browser goes next to end that session too.
     */
    logout: build.mutation<{ endSessionUrl?: string } | null, void>({
      query: () => ({ url: 'auth/logout', method: 'POST' }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          if (data?.endSessionUrl) {
            window.location.assign(data.endSessionUrl);
            return;
          }
          dispatch(baseApi.util.resetApiState());
          await dispatch(authApi.util.upsertQueryData('getMe', undefined, null));
        } catch {
          // the button shows the error
        }
      },
    }),
  }),
});

export const { useGetMeQuery, useGetSignInProvidersQuery, useLoginMutation, useLogoutMutation } =
  authApi;

export function hasRole(me: Me | null | undefined, role: Me['roles'][number]): boolean {
  return me?.roles.includes(role) ?? false;
}

/**
 * Whether the user holds the role for all sites, not only for some (`admin@jura`,
 * docs/product.md#roles): the library-wide screens (blacklist, accounts, integrations) are theirs.
 */
export function hasRoleForAllSites(me: Me | null | undefined, role: Me['roles'][number]): boolean {
  return me?.grants.includes(role) ?? false;
}
