export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 20 ms until it holds (true) or `timeoutMs` have passed (false). */
export async function holdsWithin(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

/** Polls `check` every 20 ms until it holds; fails naming `what` after `timeoutMs`. */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  if (!(await holdsWithin(check, timeoutMs)))
    throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** The same database as `url`, with an application_name that marks the connections in pg_stat_activity. */
export function withAppName(url: string, name: string): string {
  const u = new URL(url);
  u.searchParams.set('application_name', name);
  return u.toString();
}
