import { randomUUID } from 'node:crypto';
import {
  CommitGroups,
  ConcurrencyError,
  formatPosition,
  type CommitGroupCounts,
  type Actor,
  type AppendRequest,
  type EventStore,
  type Position,
  type StoreSession,
} from '@rr/events';
import { localDateTime, problems, type Clock } from '@rr/platform';
import { Refused, type Now } from '@rr/domain';
import { projectInline } from './inline-projections.ts';

// The stream helpers every command's load and appends use; they live with the event store.
export { expected, foldStream } from '@rr/events';

/**
 * The one path of every command: in one database transaction, lock and read the streams (and
 * the write side's state rows) the decision needs and fold them (`load`), call the pure decider
 * (`decide`), append its events at the versions read (`appends`), move the tables beside the log
 * by the same events (the inline projections, inline-projections.ts), write the rows that are no
 * events (`record`: personal data, image bytes) and answer with the position of the last event
 * (what read-your-writes waits for). Refusals (`Refused`) pass through unchanged; the edge gives
 * them their HTTP status. A command that lost a race for a new stream or a lock is run again.
 * Several commands on one load are a batch (handleCommands).
 *
 * Route files only parse, call and answer; jobs (cart expiry) call it the same way.
 */
export interface CommandSpec<State, Decision, Answer> {
  actor: Actor;
  load(s: StoreSession): Promise<State>;
  decide(state: State): Decision;
  appends(decision: Decision, state: State): AppendRequest[];
  record?(s: StoreSession, decision: Decision, state: State): Promise<void>;
  answer(decision: Decision, state: State): Answer;
  /** After the commit: what caches of folded state learn (never before: a rollback would lie). */
  committed?(decision: Decision, state: State): void;
  /** Whether the command may share a commit (see BatchSpec's group). */
  group?: boolean;
}

export interface CommandResult<Answer> {
  answer: Answer;
  /** The position token of the last event written ('0_0' when nothing was written). */
  position: string;
}

/** The time a decision is made at: the clock's instant, and the library's day and time of it. */
export function decisionTime({ clock, timeZone }: { clock: Clock; timeZone: string }): Now {
  const now = clock.now();
  const { date, time } = localDateTime(now, timeZone);
  return { now, today: date, time };
}

export const positionToken = (p: Position | null) => (p ? formatPosition(p) : '0_0');

/**
 * Appends of several decisions made one after the other in one command, each on the state the
 * earlier ones left (a staff cancellation of several owners' tickets in one slot): one append
 * per stream, at the version it was read at, with the events in the order they were decided.
 */
export function mergeAppends(requests: AppendRequest[]): AppendRequest[] {
  const byStream = new Map<string, AppendRequest>();
  for (const r of requests) {
    const known = byStream.get(r.streamId);
    if (known) known.events = [...known.events, ...r.events];
    else byStream.set(r.streamId, { ...r, events: [...r.events] });
  }
  return [...byStream.values()];
}

/**
 * The appends of a batch, one per stream at the version it was loaded at, each stream where its
 * last events were decided: every command's streams keep its order (a new cart's stream before
 * the slot's hold of it, as reservationAppends orders one command's), however many commands the
 * shared stream (the slot) collects.
 */
function mergeBatchAppends(requests: AppendRequest[]): AppendRequest[] {
  const merged = mergeAppends(requests);
  const last = new Map(requests.map((r, i) => [r.streamId, i]));
  return merged.sort((a, b) => last.get(a.streamId)! - last.get(b.streamId)!);
}

/** What one command of a batch came to: its result, or the refusal it met. */
export type Outcome<T> = { ok: T } | { err: Refused };

/**
 * Several commands decided in one transaction on one load (a rush of new carts on one slot): each
 * in order on the state the earlier ones left (`evolve`), each with a correlation id of its own.
 * A refusal is that command's outcome and leaves the state as it was; any other error rolls the
 * whole batch back. The appends of all accepted commands are merged per stream, at the versions
 * loaded.
 */
export interface BatchSpec<State, Command, Decision, Answer> {
  actor: Actor;
  commands: readonly Command[];
  load(s: StoreSession): Promise<State>;
  decide(state: State, command: Command): Decision;
  /** The state the next command decides on. */
  evolve(state: State, decision: Decision, command: Command): State;
  appends(decision: Decision, state: State, command: Command): AppendRequest[];
  record?(s: StoreSession, decision: Decision, state: State, command: Command): Promise<void>;
  answer(decision: Decision, state: State, command: Command): Answer;
  committed?(decision: Decision, state: State, command: Command): void;
  /**
   * Whether the commands may share a commit with other commands of the moment (group commit, when
   * the store has it): only commands whose load locks and reads, and writes nothing before its
   * decision (see CommitGroups).
   */
  group?: boolean;
}

/**
 * What one command's decisions write (a batch's merged): its appends, who made them, and its
 * rows that are no events. A commit group writes several commands' parts at once.
 */
export interface WritePart {
  actor: Actor;
  appends: AppendRequest[];
  record(s: StoreSession): Promise<void>;
}

/**
 * The writes of one transaction's commands: every part's appends in one statement (each part's
 * events keep their actor and get a correlation id of the part's own when the parts are several),
 * the tables beside the log moved by all of them, then each part's rows that are no events.
 */
async function writeParts(s: StoreSession, parts: readonly WritePart[]): Promise<void> {
  const several = parts.length > 1;
  const appends = parts.flatMap((part) => {
    if (!several) return part.appends;
    const metadata = { actor: part.actor, correlationId: randomUUID() };
    return part.appends.map((r) => ({
      ...r,
      events: r.events.map((e) => ({ ...e, metadata: { ...metadata, ...e.metadata } })),
    }));
  });
  if (appends.length) {
    // Sent without waiting for their answers: the append, the tables beside the log and the
    // commit go to the database in one round trip (StoreSession.send).
    await s.sendAppend(appends, { metadata: { actor: parts[0]!.actor } });
    // At the store's clock, the time the events are recorded at.
    await projectInline(s, appends, s.store.clock.now());
  }
  for (const part of parts) await part.record(s);
}

/** The commit groups of a store that has them (see EventStore's groupCommit). */
const commitGroups = new WeakMap<EventStore, CommitGroups<WritePart>>();

function commitGroupsOf(store: EventStore): CommitGroups<WritePart> | null {
  if (!store.groupCommit) return null;
  let groups = commitGroups.get(store);
  if (!groups) {
    groups = new CommitGroups(store, writeParts, store.groupCommit);
    commitGroups.set(store, groups);
  }
  return groups;
}

/** How a store's commands were grouped so far (zero without group commit). */
export function commitGroupCounts(store: EventStore): CommitGroupCounts {
  return (
    commitGroups.get(store)?.counts ?? { groups: 0, grouped: 0, alone: 0, busy: 0, fallbacks: 0 }
  );
}

export async function handleCommands<State, Command, Decision, Answer>(
  store: EventStore,
  spec: BatchSpec<State, Command, Decision, Answer>,
): Promise<Outcome<CommandResult<Answer>>[]> {
  const tagged = spec.commands.length > 1;
  /** The reads and decisions, on the command's session; its writes are the part answered. */
  const prepare = async (s: StoreSession) => {
    let state: State = await spec.load(s);
    const decided: ({ decision: Decision; state: State } | { err: Refused })[] = [];
    const requests: AppendRequest[] = [];
    for (const command of spec.commands) {
      let decision: Decision;
      try {
        decision = spec.decide(state, command);
      } catch (err) {
        if (!(err instanceof Refused) || !tagged) throw err;
        decided.push({ err });
        continue;
      }
      const correlationId = tagged ? randomUUID() : undefined;
      for (const r of spec.appends(decision, state, command))
        requests.push({
          ...r,
          events: correlationId
            ? r.events.map((e) => ({ ...e, metadata: { ...e.metadata, correlationId } }))
            : r.events,
        });
      decided.push({ decision, state });
      state = spec.evolve(state, decision, command);
    }
    const part: WritePart & { decided: typeof decided } = {
      actor: spec.actor,
      appends: (tagged ? mergeBatchAppends(requests) : mergeAppends(requests)).filter(
        (r) => r.events.length > 0,
      ),
      record: async (session) => {
        for (const [i, d] of decided.entries())
          if ('decision' in d) await spec.record?.(session, d.decision, d.state, spec.commands[i]!);
      },
      decided,
    };
    return part;
  };
  const groups = spec.group ? commitGroupsOf(store) : null;
  return withRetry(async () => {
    const {
      result: { decided },
      position,
    } = groups
      ? await groups.run(prepare)
      : await store.transaction(async (s) => {
          const part = await prepare(s);
          await writeParts(s, [part]);
          return part;
        });
    return decided.map((d, i): Outcome<CommandResult<Answer>> => {
      if ('err' in d) return d;
      const command = spec.commands[i]!;
      spec.committed?.(d.decision, d.state, command);
      return {
        ok: {
          answer: spec.answer(d.decision, d.state, command),
          position: positionToken(position),
        },
      };
    });
  });
}

/** One command: a batch of one, whose refusal is thrown. */
export async function handleCommand<State, Decision, Answer>(
  store: EventStore,
  spec: CommandSpec<State, Decision, Answer>,
): Promise<CommandResult<Answer>> {
  const [outcome] = await handleCommands(store, {
    actor: spec.actor,
    commands: [null],
    load: (s) => spec.load(s),
    decide: (state) => spec.decide(state),
    evolve: (state) => state,
    appends: (decision, state) => spec.appends(decision, state),
    record: spec.record && ((s, decision, state) => spec.record!(s, decision, state)),
    answer: (decision, state) => spec.answer(decision, state),
    committed: spec.committed && ((decision, state) => spec.committed!(decision, state)),
    group: spec.group,
  });
  if (!outcome || 'err' in outcome) throw outcome?.err ?? new Error('no outcome');
  return outcome.ok;
}

/**
 * Runs a command again when another writer created the same new stream first (a new visitor's
 * first booking, a new cart id) or two writers deadlocked: bounded, then a clean 409, never a 500.
 */
export async function withRetry<T>(fn: () => Promise<T>, attempts = 4): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      const code = (err as { code?: string }).code;
      const retryable = code === '23505' || code === '40P01' || code === '40001';
      if (!(err instanceof ConcurrencyError) && !retryable) throw err;
      if (i >= attempts)
        throw problems.conflict(
          'concurrency__retry_exhausted',
          'Too many simultaneous changes, please try again',
        );
      await new Promise((r) => setTimeout(r, 5 * i + Math.random() * 10));
    }
  }
}
