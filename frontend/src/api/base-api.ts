import {
  createApi,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
  type FetchBaseQueryMeta,
  type QueryReturnValue,
} from '@reduxjs/toolkit/query/react';
import type { AppConfig } from '../lib/config';
import { ASK_AGAIN } from '../lib/constants';
import { positionOf } from '../lib/position';
import { SESSION_KEYS, writeSession } from '../lib/session-storage';
import { resolveApiUrl, serializeParams, type QueryParams } from '../lib/url';
import { positionSeen, selectMinPosition, type ConsistencyState } from './consistency-slice';

/** The store's thunk extra argument; RTK Query hands it to the base query as `api.extra`. */
export interface ThunkExtra {
  readonly config: AppConfig;
}

export const TAG_TYPES = [
  'Auth',
  'Room',
  'TimeSlot',
  'Holiday',
  'Blacklist',
  'NoShowBlock',
  'ApiToken',
  'Webhook',
  'SeatPlan',
] as const;

const isStale = (response: Response) => response.headers.get('X-Read-Stale') === 'true';

/** Endpoints whose 401 answer means "signed out" rather than "session expired". */
const AUTH_ENDPOINTS = new Set(['getMe', 'login', 'logout']);

function methodOf(args: string | FetchArgs): string {
  return typeof args === 'string' ? 'GET' : (args.method ?? 'GET').toUpperCase();
}

/**
 * One request, answered as RTK Query's fetchBaseQuery answers (the error kinds of
 * docs/product.md#errors error handling: `{status, data}` for an HTTP error, `FETCH_ERROR` without an answer,
 * `PARSING_ERROR` for a body that is no JSON), for what this app sends: JSON bodies,
 * FormData or a Blob, query parameters, the session cookie. A few lines instead of fetchBaseQuery's
 * general options (timeouts, response handlers, ...), which every page downloaded unused.
 */
async function request(
  { url, params, body, headers: given, ...init }: FetchArgs,
  minPosition: string | null,
  signal: AbortSignal,
): Promise<QueryReturnValue<unknown, FetchBaseQueryError, FetchBaseQueryMeta>> {
  const headers = new Headers(given as HeadersInit | undefined);
  headers.set('X-Requested-With', 'XMLHttpRequest');
  headers.set('Accept', 'application/json');
  if (minPosition !== null) headers.set('X-Min-Position', minPosition);
  // FormData (a file upload) and a Blob (a CSV file) go as they are, with their own type.
  const json = body !== undefined && !(body instanceof FormData) && !(body instanceof Blob);
  if (json) headers.set('Content-Type', 'application/json');
  const query = params ? serializeParams(params as QueryParams) : '';
  // A new Request for each try from the same body (a string or FormData): a clone's body would
  // be a stream, which the browser sends without a length (and tools see no body of).
  const make = () =>
    new Request(query ? `${url}${url.includes('?') ? '&' : '?'}${query}` : url, {
      ...init,
      headers,
      body: json ? JSON.stringify(body) : (body as BodyInit | undefined),
      credentials: 'include',
      signal,
    });
  const req = make();
  let response: Response;
  try {
    for (let tries = 1; ; tries++) {
      response = await fetch(tries === 1 ? req : make());
      if (tries > ASK_AGAIN) break;
      // A read that waited for this app's own write in vain (X-Read-Stale) and found nothing
      // (404: the cart just made, the booking just done) is asked again: the read models are
      // behind on a busy server, and the next try waits for them once more.
      if (req.method === 'GET' && response.status === 404 && isStale(response)) continue;
      // Shed load (503 service__overloaded, docs/product.md#overload) was never run: ask again
      // after the Retry-After the server said, a few times. Another 503 may have written, so only
      // a read is asked again then.
      const wait = Number(response.headers.get('Retry-After'));
      if (response.status !== 503 || !(wait > 0)) break;
      if (req.method !== 'GET' && !(await response.clone().text()).includes('service__overloaded'))
        break;
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    }
  } catch (error) {
    return { error: { status: 'FETCH_ERROR', error: String(error) } };
  }
  const meta = { request: req, response };
  const text = await response.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (error) {
    return {
      error: {
        status: 'PARSING_ERROR',
        originalStatus: response.status,
        data: text,
        error: String(error),
      },
      meta,
    };
  }
  return response.ok ? { data, meta } : { error: { status: response.status, data }, meta };
}

/**
 * `request` on `config.baseApiUrl` (read from the store's extra argument, since the
 * configuration is only known at start-up), recording the `position` of every command answer.
 */
export const baseQuery: BaseQueryFn<
  string | FetchArgs,
  unknown,
  FetchBaseQueryError,
  object,
  FetchBaseQueryMeta
> = async (args, api) => {
  const { config } = api.extra as ThunkExtra;
  const fetchArgs: FetchArgs = typeof args === 'string' ? { url: args } : args;
  const get = methodOf(fetchArgs) === 'GET';
  const result = await request(
    { ...fetchArgs, url: resolveApiUrl(config.baseApiUrl, fetchArgs.url) },
    get ? selectMinPosition(api.getState() as { consistency: ConsistencyState }) : null,
    api.signal,
  );
  if (!get && result.data !== undefined) {
    const position = positionOf(result.data);
    if (position !== null) {
      api.dispatch(positionSeen(position));
      const seen = selectMinPosition(api.getState() as { consistency: ConsistencyState });
      if (seen !== null) writeSession(SESSION_KEYS.position, seen);
    }
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
