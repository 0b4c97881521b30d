import type { Logger } from './logger.ts';

/** A job started by startIntervalJob: stop() ends it after the round in progress. */
export interface IntervalJob {
  stop(): Promise<void>;
}

/**
 * Runs a job's round every `intervalMs` (and once at once with `runAtStart`), one round at a
 * time: a round that takes longer than the interval delays the next instead of overlapping it.
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
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const next = () => {
    if (stopped) return;
    running = running
      .then(round)
      .catch((err: unknown) => logger.warn({ err: String(err) }, `${name} round failed`));
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
