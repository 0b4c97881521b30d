import { baseApi } from '../../../api/base-api';
import type {
  DailyReport,
  Insights,
  OccupancyReportItem,
  Page,
  Room,
  SeatInsights,
  SiteList,
  WhatIf,
} from '../../../api/types';
import { MAX_ROOMS } from '../../../lib/constants';
import type { OccupancyQuery } from '../utils/reports';
import { insightsParams, type InsightsQuery } from '../utils/insights';

export interface DailyReportQuery {
  roomId: string;
  /** `YYYY-MM-DD`. */
  date: string;
}

const enc = encodeURIComponent;

/** Reads only: the `reports` role may use all of these. */
export const reportsApi = baseApi
  .enhanceEndpoints({ addTagTypes: ['Ticket', 'Site'] })
  .injectEndpoints({
    endpoints: (build) => ({
      /** docs/product.md#api: the room list load asks for up to maxRooms with offset 0. */
      getReportRooms: build.query<Page<Room>, void>({
        query: () => ({
          url: 'admin/rooms',
          params: { limit: MAX_ROOMS, offset: 0, sort: 'order:ASC' },
        }),
        providesTags: [{ type: 'Room', id: 'LIST' }],
      }),
      /** The sites the user reaches (hers only, docs/product.md#roles): the reports' site filter. */
      getReportSites: build.query<SiteList, void>({
        query: () => 'admin/sites',
        providesTags: [{ type: 'Site', id: 'LIST' }],
      }),
      getReportRoom: build.query<Room, string>({
        query: (id) => `admin/rooms/${enc(id)}`,
        providesTags: (_result, _error, id) => [{ type: 'Room', id }],
      }),
      getDailyReport: build.query<DailyReport, DailyReportQuery>({
        query: ({ roomId, date }) => ({
          url: `admin/rooms/${enc(roomId)}/daily-report`,
          params: { date },
        }),
        providesTags: [{ type: 'Ticket', id: 'LIST' }],
      }),
      getOccupancyReport: build.query<OccupancyReportItem[], OccupancyQuery>({
        query: (params) => ({ url: 'admin/tickets/report', params: { ...params } }),
        providesTags: [
          { type: 'Ticket', id: 'LIST' },
          { type: 'TimeSlot', id: 'LIST' },
        ],
      }),
      getInsights: build.query<Insights, InsightsQuery>({
        query: (query) => ({ url: 'admin/insights', params: insightsParams(query) }),
        providesTags: [
          { type: 'Ticket', id: 'LIST' },
          { type: 'TimeSlot', id: 'LIST' },
        ],
      }),
      /** A room's seats' use (docs/product.md#insights); the room is required. */
      getSeatInsights: build.query<SeatInsights, InsightsQuery>({
        query: (query) => ({ url: 'admin/insights/seats', params: insightsParams(query) }),
        providesTags: [
          { type: 'Ticket', id: 'LIST' },
          { type: 'TimeSlot', id: 'LIST' },
        ],
      }),
      /** The what-if replay: a POST that only reads (docs/product.md#insights). */
      getWhatIf: build.query<
        WhatIf,
        { query: InsightsQuery; change: { capacity?: number; maxTicketsPerDay?: number } }
      >({
        query: ({ query, change }) => ({
          url: 'admin/insights/what-if',
          method: 'POST',
          body: { ...insightsParams(query), change },
        }),
      }),
    }),
  });

export const {
  useGetReportRoomsQuery,
  useGetReportSitesQuery,
  useGetReportRoomQuery,
  useGetDailyReportQuery,
  useGetOccupancyReportQuery,
  useGetInsightsQuery,
  useGetSeatInsightsQuery,
  useGetWhatIfQuery,
} = reportsApi;
