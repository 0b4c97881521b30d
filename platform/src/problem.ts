/**
 * The one error type that reaches clients. It is rendered as application/problem+json with the
 * `error` code of docs/product.md#errors and its `payload` array so the frontend can pick a message
 * (the key is the code, or the code and the first payload item), and, for a code whose key has no
 * payload, the values its message names beside them in `values`.
 */
export interface FieldError {
  field: string;
  rule: string;
  message: string;
}

export class Problem extends Error {
  override name = 'Problem';
  constructor(
    readonly status: number,
    readonly error: string,
    readonly title: string,
    readonly payload: string[] = [],
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
    readonly values?: Readonly<Record<string, string>>,
  ) {
    super(title);
  }

  toJSON(): Record<string, unknown> {
    return {
      type: 'about:blank',
      title: this.title,
      status: this.status,
      error: this.error,
      payload: this.payload,
      ...(this.values ? { values: this.values } : {}),
      ...(this.errors ? { errors: this.errors } : {}),
    };
  }
}

export const problems = {
  validation: (errors: FieldError[]) =>
    new Problem(400, 'validation__error', 'The request is not valid', [], errors),
  badRequest: (error: string, title: string, payload: string[] = []) =>
    new Problem(400, error, title, payload),
  unauthorized: () => new Problem(401, 'http__unauthorized', 'Sign-in required'),
  forbidden: () => new Problem(403, 'http__access_denied_exception', 'Access denied'),
  notFound: (what = 'Resource') => new Problem(404, 'not_found', `${what} not found`),
  conflict: (error: string, title: string, payload: string[] = []) =>
    new Problem(409, error, title, payload),
  versionConflict: () =>
    new Problem(409, 'concurrency__version_conflict', 'The resource was changed meanwhile'),
  tooLarge: (error = 'http__payload_too_large') =>
    new Problem(413, error, 'The request is too large'),
  unavailable: () => new Problem(503, 'service__unavailable', 'Service temporarily unavailable'),
  /** Shed load: the request was not run (platform/src/load-shedding.ts). */
  overloaded: () =>
    new Problem(
      503,
      'service__overloaded',
      'The service is busy; the request was not run. Try again after Retry-After seconds',
    ),
  /**
   * A what-if replay beyond those running and waiting (docs/product.md#insights): not run; the
   * payload names the seconds of `Retry-After` for the message.
   */
  replayBusy: (retryAfterSeconds: number) =>
    new Problem(
      503,
      'insights__replay_busy',
      'Other what-if replays are running; the replay was not run. Try again after Retry-After seconds',
      ['seconds', String(retryAfterSeconds)],
      undefined,
      { 'Retry-After': String(retryAfterSeconds) },
    ),
  internal: () => new Problem(500, 'unknown', 'Internal error'),
};
