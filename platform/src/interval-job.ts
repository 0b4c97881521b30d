import type { Logger } from './logger.ts';

/** A job started by startIntervalJob: stop() ends it after the round in progress. */
export interface IntervalJob {
  stop(): Promise<void>;
}

/**
 * Runs a job's round every `intervalMs` (and once at once with `runAtStart`), one round at a
 * time: a tick that comes while a round is still running is skipped, so a round that takes longer
 * than the interval delays the next instead of overlapping it, and slow rounds never queue up
 * behind each other (a stop waits for the one round running, never for a backlog of them).
 * A failed round is logged at warn (`<name> round failed`) and the next one tries again; the
 * clock the round decides by is its own (the injected one), never the timer's.
 */
export function startIntervalJob(
  name: string,
  round: () => Promise<unknown>,
  intervalMs: number,
  logger: Logger,
  { runAtStart = false }: { runAtStart?: boolean } = {},
): IntervalJob {
  let running: Promise<void> | null = null;
  let stopped = false;
  const next = () => {
    if (stopped || running) return;
    running = Promise.resolve()
      .then(round)
      .then(
        () => undefined,
        (err: unknown) => logger.warn({ err: String(err) }, `${name} round failed`),
      )
      .finally(() => {
        running = null;
      });
  };
  if (runAtStart) next();
  const timer = setInterval(next, intervalMs);
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
