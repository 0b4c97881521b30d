import { baseApi } from '../../../api/base-api';
import type { StaffAccount, StaffSignIn } from '../../../api/types';

/** The staff accounts and the record of sign-ins (admins only). */
export const staffAccountsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getStaffAccounts: build.query<StaffAccount[], void>({
      query: () => 'auth/staff-accounts',
      transformResponse: (page: { items: StaffAccount[] }) => page.items,
    }),
    /** The latest records; with a name, only those of that name (a refusal's typed name by its key). */
    getStaffSignIns: build.query<StaffSignIn[], string | undefined>({
      query: (name) => ({ url: 'auth/sign-ins', params: name ? { name } : undefined }),
      transformResponse: (page: { items: StaffSignIn[] }) => page.items,
    }),
    endStaffSessions: build.mutation<null, string>({
      query: (username) => ({
        url: `auth/staff-accounts/${encodeURIComponent(username)}/end-sessions`,
        method: 'POST',
      }),
    }),
  }),
});

export const { useGetStaffAccountsQuery, useGetStaffSignInsQuery, useEndStaffSessionsMutation } =
  staffAccountsApi;
