import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import type { AppConfig } from '../lib/config';
import { positionOf } from '../lib/position';
import { resolveApiUrl, serializeParams, type QueryParams } from '../lib/url';
import { positionSeen, selectMinPosition, type ConsistencyState } from './consistency-slice';

/** The store's thunk extra argument; RTK Query hands it to the base query as `api.extra`. */
export interface ThunkExtra {
  readonly config: AppConfig;
}

export const TAG_TYPES = ['Auth', 'Room', 'TimeSlot', 'Holiday', 'Blacklist'] as const;

/** Endpoints whose 401 answer means "signed out" rather than "session expired". */
const AUTH_ENDPOINTS = new Set(['getMe', 'login', 'logout']);

function methodOf(args: string | FetchArgs): string {
  return typeof args === 'string' ? 'GET' : (args.method ?? 'GET').toUpperCase();
}

const rawBaseQuery = fetchBaseQuery({
  credentials: 'include',
  paramsSerializer: (params) => serializeParams(params as QueryParams),
  prepareHeaders: (headers, { getState, arg }) => {
    headers.set('X-Requested-With', 'XMLHttpRequest');
    if (methodOf(arg) === 'GET') {
      const minPosition = selectMinPosition(getState() as { consistency: ConsistencyState });
      if (minPosition !== null) headers.set('X-Min-Position', minPosition);
    }
    return headers;
  },
});

/**
 * fetchBaseQuery on `config.baseApiUrl` (read from the store's extra argument, since the
 * configuration is only known at start-up), recording the `position` of every command answer.
 */
export const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (
  args,
  api,
  extraOptions,
) => {
  const { config } = api.extra as ThunkExtra;
  const fetchArgs: FetchArgs = typeof args === 'string' ? { url: args } : args;
  const result = await rawBaseQuery(
    { ...fetchArgs, url: resolveApiUrl(config.baseApiUrl, fetchArgs.url) },
    api,
    extraOptions,
  );
  if (methodOf(fetchArgs) !== 'GET' && result.data !== undefined) {
    const position = positionOf(result.data);
    if (position !== null) api.dispatch(positionSeen(position));
  }
  if (result.error?.status === 401 && !AUTH_ENDPOINTS.has(api.endpoint)) {
    // The session ended: re-check who is signed in, which shows the sign-in page.
    api.dispatch(baseApi.util.invalidateTags(['Auth']));
  }
  return result;
};

/** Features add their endpoints with `baseApi.injectEndpoints`. */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: TAG_TYPES,
  endpoints: () => ({}),
});
