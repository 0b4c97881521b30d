import { baseApi } from '../../../api/base-api';
import type {
  BlacklistEntry,
  BlacklistEntryInput,
  BlacklistEntryUpdateInput,
  Page,
  PositionResult,
} from '../../../api/types';

/** docs/product.md#limits: maxBlackListEntries. */
export const MAX_BLACKLIST_ENTRIES = 999;

export interface BlacklistQuery {
  term?: string;
  /** `field:ASC|DESC`. */
  sort: string;
}

const LIST = { type: 'Blacklist', id: 'LIST' } as const;
/** The address is a path segment: URL-encoded. */
const entryPath = (email: string) => `admin/blacklist/${encodeURIComponent(email)}`;

export const adminBlacklistApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getBlacklist: build.query<Page<BlacklistEntry>, BlacklistQuery>({
      query: ({ term, sort }) => ({
        url: 'admin/blacklist',
        params: { term: term || undefined, sort, limit: MAX_BLACKLIST_ENTRIES, offset: 0 },
      }),
      providesTags: (result) => [
        LIST,
        ...(result?.content.map((entry) => ({ type: 'Blacklist' as const, id: entry.email })) ??
          []),
      ],
    }),
    getBlacklistEntry: build.query<BlacklistEntry, string>({
      query: (email) => entryPath(email),
      providesTags: (_result, _error, email) => [{ type: 'Blacklist', id: email }],
    }),
    /** 409 `blacklist__email_already_exists`. */
    addBlacklistEntry: build.mutation<PositionResult, BlacklistEntryInput>({
      query: (body) => ({ url: 'admin/blacklist', method: 'POST', body }),
      invalidatesTags: [LIST],
    }),
    updateBlacklistEntry: build.mutation<
      PositionResult,
      { email: string; body: BlacklistEntryUpdateInput }
    >({
      query: ({ email, body }) => ({ url: entryPath(email), method: 'PUT', body }),
      invalidatesTags: (_result, _error, { email }) => [LIST, { type: 'Blacklist', id: email }],
    }),
    deleteBlacklistEntry: build.mutation<PositionResult, string>({
      query: (email) => ({ url: entryPath(email), method: 'DELETE' }),
      invalidatesTags: (result) => (result ? [LIST] : []),
    }),
  }),
});

export const {
  useGetBlacklistQuery,
  useGetBlacklistEntryQuery,
  useAddBlacklistEntryMutation,
  useUpdateBlacklistEntryMutation,
  useDeleteBlacklistEntryMutation,
} = adminBlacklistApi;
