import type { NewEvent } from '@rr/events/catalogue';

/**
 * The one shape of every decider: a pure function of the command, the state folded from the
 * streams it decides on, and the context (the clock's instant and the library's day, the
 * limits, fresh ids). It answers the events to append, keyed by stream where it writes several,
 * or throws a `Refused` (refusal.ts). It reads nothing and writes nothing itself: the command
 * handler (command-service/src/command.ts) locks and reads the streams, folds, calls it,
 * appends and answers.
 */
export type Decide<Command, State, Context, Decision = NewEvent[]> = (
  command: Command,
  state: State,
  context: Context,
) => Decision;

/** The time a decision is made at: the injected clock's instant, and the library's local day and time of it. */
export interface Now {
  now: Date;
  today: string;
  time: string;
}

/**
 * The end of every `decide`'s switch over its commands: a command type added to the union and
 * not decided fails to compile here (its type is not `never`), and a command of no known type
 * that reaches the decider at run time is a programming error, not a refusal.
 */
export function unhandled(command: never): never {
  throw new Error(`no decision for the command ${JSON.stringify(command)}`);
}
