import { baseApi } from '../../../api/base-api';
import type {
  PositionResult,
  Site,
  SiteInput,
  SiteHoursInput,
  SiteList,
  SiteUpdateInput,
  SiteWritten,
} from '../../../api/types';

const LIST = { type: 'Site', id: 'LIST' } as const;
/** A room created, moved or deleted changes its site's room count. */
const ROOMS = { type: 'Room', id: 'LIST' } as const;
const sitePath = (id: string) => `admin/sites/${encodeURIComponent(id)}`;

/** docs/product.md#sites: the library's sites for staff (only admins change them). */
export const adminSitesApi = baseApi.enhanceEndpoints({ addTagTypes: ['Site'] }).injectEndpoints({
  endpoints: (build) => ({
    /** The first site first, then by name, each with its room count. */
    getAdminSites: build.query<SiteList, void>({
      query: () => 'admin/sites',
      providesTags: (result) => [
        LIST,
        ROOMS,
        ...(result?.content.map((site) => ({ type: 'Site' as const, id: site.id })) ?? []),
      ],
    }),
    getAdminSite: build.query<Site, string>({
      query: (id) => sitePath(id),
      providesTags: (_result, _error, id) => [{ type: 'Site', id }],
    }),
    /** 409 `site__slug_taken` when another site has the slug. */
    createSite: build.mutation<SiteWritten, SiteInput>({
      query: (body) => ({ url: 'admin/sites', method: 'POST', body }),
      invalidatesTags: [LIST],
    }),
    /** 409 `concurrency__version_conflict` when `version` is stale, or `site__slug_taken`. */
    updateSite: build.mutation<SiteWritten, { id: string; body: SiteUpdateInput }>({
      query: ({ id, body }) => ({ url: sitePath(id), method: 'PUT', body }),
      invalidatesTags: (_result, _error, { id }) => [LIST, { type: 'Site', id }],
    }),
    /** The site's opening hours, all at once (not by version: they are no part of its details). */
    setSiteHours: build.mutation<PositionResult, { id: string; hours: SiteHoursInput }>({
      query: ({ id, hours }) => ({ url: `${sitePath(id)}/hours`, method: 'PUT', body: hours }),
      invalidatesTags: (_result, _error, { id }) => [LIST, { type: 'Site', id }],
    }),
    /** 400 `image__invalid_type`, `image__too_large`, `image__invalid` for a file it refuses. */
    setSiteLogo: build.mutation<PositionResult, { id: string; logo: File }>({
      query: ({ id, logo }) => {
        const body = new FormData();
        body.append('logo', logo);
        return { url: `${sitePath(id)}/logo`, method: 'PUT', body };
      },
      invalidatesTags: (_result, _error, { id }) => [LIST, { type: 'Site', id }],
    }),
    removeSiteLogo: build.mutation<PositionResult, string>({
      query: (id) => ({ url: `${sitePath(id)}/logo`, method: 'DELETE' }),
      invalidatesTags: (_result, _error, id) => [LIST, { type: 'Site', id }],
    }),
    /** 409 `site__has_rooms` while rooms belong to it, `site__first_site` for the first site. */
    deleteSite: build.mutation<PositionResult, string>({
      query: (id) => ({ url: sitePath(id), method: 'DELETE' }),
      // Only the list: the deleted site's own query would answer 404.
      invalidatesTags: (result) => (result ? [LIST] : []),
    }),
  }),
});

export const {
  useGetAdminSitesQuery,
  useGetAdminSiteQuery,
  useCreateSiteMutation,
  useUpdateSiteMutation,
  useDeleteSiteMutation,
  useSetSiteHoursMutation,
  useSetSiteLogoMutation,
  useRemoveSiteLogoMutation,
} = adminSitesApi;
