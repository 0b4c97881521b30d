import { baseApi } from '../../../api/base-api';
import type {
  Holiday,
  HolidayImportResult,
  HolidayInput,
  HolidayUpdateInput,
  HolidayWritten,
  Page,
  PositionResult,
  SiteList,
} from '../../../api/types';

/** docs/product.md#api: year lists ask 1 January to 31 December with limit 999. */
export const MAX_HOLIDAYS = 999;

const LIST = { type: 'Holiday', id: 'LIST' } as const;
const holidayPath = (id: string) => `admin/holidays/${encodeURIComponent(id)}`;

/** A year of holidays; with a site, only the holidays of its rooms (the whole system's and its own). */
export interface HolidayYear {
  year: number;
  siteId?: string | undefined;
}

export const adminHolidaysApi = baseApi
  .enhanceEndpoints({ addTagTypes: ['Site'] })
  .injectEndpoints({
    endpoints: (build) => ({
      getHolidaysOfYear: build.query<Page<Holiday>, HolidayYear>({
        query: ({ year, siteId }) => ({
          url: 'admin/holidays',
          params: {
            fromDate: `${year}-01-01`,
            untilDate: `${year}-12-31`,
            limit: MAX_HOLIDAYS,
            offset: 0,
            sort: 'date:ASC',
            ...(siteId ? { siteId } : {}),
          },
        }),
        providesTags: (result) => [
          LIST,
          ...(result?.content.map((holiday) => ({ type: 'Holiday' as const, id: holiday.id })) ??
            []),
        ],
      }),
      /** The sites a holiday can be of (the API answers the user's sites only). */
      getHolidaySites: build.query<SiteList, void>({
        query: () => 'admin/sites',
        providesTags: [{ type: 'Site', id: 'LIST' }],
      }),
      getHoliday: build.query<Holiday, string>({
        query: (id) => holidayPath(id),
        providesTags: (_result, _error, id) => [{ type: 'Holiday', id }],
      }),
      createHoliday: build.mutation<HolidayWritten, HolidayInput>({
        query: (body) => ({ url: 'admin/holidays', method: 'POST', body }),
        invalidatesTags: [LIST],
      }),
      /** 409 `concurrency__version_conflict` when `version` is stale. */
      updateHoliday: build.mutation<HolidayWritten, { id: string; body: HolidayUpdateInput }>({
        query: ({ id, body }) => ({ url: holidayPath(id), method: 'PUT', body }),
        invalidatesTags: (_result, _error, { id }) => [LIST, { type: 'Holiday', id }],
      }),
      deleteHoliday: build.mutation<PositionResult, string>({
        query: (id) => ({ url: holidayPath(id), method: 'DELETE' }),
        invalidatesTags: (result) => (result ? [LIST] : []),
      }),
      /** 400 `calendar__invalid_file` or `calendar__too_large`. */
      importHolidays: build.mutation<
        HolidayImportResult,
        { file: File; siteId?: string | undefined }
      >({
        query: ({ file, siteId }) => {
          const body = new FormData();
          body.append('file', file);
          return {
            url: 'admin/holidays/ical',
            method: 'POST',
            body,
            ...(siteId ? { params: { siteId } } : {}),
          };
        },
        invalidatesTags: [LIST],
      }),
    }),
  });

export const {
  useGetHolidaysOfYearQuery,
  useGetHolidaySitesQuery,
  useGetHolidayQuery,
  useCreateHolidayMutation,
  useUpdateHolidayMutation,
  useDeleteHolidayMutation,
  useImportHolidaysMutation,
} = adminHolidaysApi;
