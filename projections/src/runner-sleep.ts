/**
 * Waits `ms` milliseconds, or less when the signal aborts (resolves either way, never rejects).
 * The abort listener goes when the timer fires: a standby runner sleeps once a second on the
 * same long-lived signal, and a listener left behind each time is a leak (and Node's
 * MaxListenersExceededWarning after ten).
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
