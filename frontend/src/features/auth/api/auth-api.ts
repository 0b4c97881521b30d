import { baseApi } from '../../../api/base-api';
import type { Credentials, Me } from '../../../api/types';

export const ROLE_ADMIN = 'admin';
export const ROLE_REPORTS = 'reports';

export const authApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** The signed-in user, or null when signed out (GET auth/me answers 401). */
    getMe: build.query<Me | null, void>({
      async queryFn(_arg, _api, _extraOptions, baseQuery) {
        const result = await baseQuery('auth/me');
        if (result.error) {
          return result.error.status === 401 ? { data: null } : { error: result.error };
        }
        return { data: result.data as Me };
      },
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
    logout: build.mutation<null, void>({
      query: () => ({ url: 'auth/logout', method: 'POST' }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
          dispatch(baseApi.util.resetApiState());
          await dispatch(authApi.util.upsertQueryData('getMe', undefined, null));
        } catch {
          // the button shows the error
        }
      },
    }),
  }),
});

export const { useGetMeQuery, useLoginMutation, useLogoutMutation } = authApi;

export function hasRole(me: Me | null | undefined, role: Me['roles'][number]): boolean {
  return me?.roles.includes(role) ?? false;
}
