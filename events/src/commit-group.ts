import pg from 'pg';
import type { Position } from './position.ts';
import { GroupLocks } from './group-locks.ts';
import { StoreSession } from './session.ts';
import type { EventStore } from './store.ts';
import { ConcurrencyError, LockBusy } from './types.ts';

/** How commands share their commits (GROUP_COMMIT… in the config). */
export interface CommitGroupSettings {
  /** The most commands in one group. */
  maxMembers: number;
  /** The most groups writing at once, each on a connection of its own. */
  maxGroups: number;
}

/** What the commands of a group committed, and how they were grouped (for the metrics). */
export interface CommitGroupCounts {
  /** Groups of two or more commands committed together. */
  groups: number;
  /** Commands committed in such groups. */
  grouped: number;
  /** Commands that ran alone: by themselves, or after leaving a group (below). */
  alone: number;
  /** Commands that left a group for a stream another writer held (LockBusy). */
  busy: number;
  /** Groups rolled back by a failed statement, their commands run again alone. */
  fallbacks: number;
}

interface Member<P> {
  /** The command's reads and decision on its session; what it answers the group writes. */
  prepare(s: StoreSession): Promise<P>;
  /** Called once its group (or its own transaction) has committed, with the position written. */
  committed(position: Position | null): void;
  failed(err: unknown): void;
}

type Prepared<P> =
  | { kind: 'part'; member: Member<P>; part: P }
  | { kind: 'busy'; member: Member<P> }
  | { kind: 'error'; member: Member<P>; err: unknown };

/**
 * Group commit: commands that arrive while others are being written share one transaction. Each
 * command's reads and locks run on a session of its own over the group's connection, all of them
 * sent together (pipelined); then ONE write of every command's events (one append statement, the
 * tables beside the log, the rows that are no events) and ONE commit. A command is answered only
 * once that commit has answered: a crash before it loses the whole group, nothing anybody was
 * told. The members' locks are only tried (rr_try_lock_read_streams): a group never waits for a
 * lock while it holds its earlier members' ones, so groups cannot deadlock with each other or
 * with other writers; a command whose stream is held (by another transaction or member) leaves
 * the group and runs alone after it. A refusal is its command's answer and leaves the others be;
 * a failed statement aborts the transaction, so the group is rolled back and each command runs
 * again alone. A lost connection fails the commands as it fails one alone: their outcome is
 * unknown, and running them again could apply them twice.
 *
 * `prepare` must not write (the group's `write` does, for every member at once).
 */
export class CommitGroups<P> {
  private readonly waiting: Member<P>[] = [];
  private writing = 0;
  private scheduled = false;
  readonly counts: CommitGroupCounts = { groups: 0, grouped: 0, alone: 0, busy: 0, fallbacks: 0 };

  constructor(
    private readonly store: EventStore,
    /** Writes the parts of the group's members in its transaction (before the commit). */
    private readonly write: (s: StoreSession, parts: readonly P[]) => Promise<void>,
    private readonly settings: CommitGroupSettings,
  ) {}

  /**
   * Runs a command in the next group: `prepare` on its own session, the group's write of what it
   * answered, and the commit; resolves after the commit with the part and the position written.
   */
  run<T extends P>(
    prepare: (s: StoreSession) => Promise<T>,
  ): Promise<{ result: T; position: Position | null }> {
    return new Promise((resolve, reject) => {
      let part: T | undefined;
      this.waiting.push({
        prepare: async (s) => (part = await prepare(s)),
        // Set by the prepare that this commit wrote (a member is committed only after it).
        committed: (position) => resolve({ result: part!, position }),
        failed: reject,
      });
      this.schedule();
    });
  }

  /**
   * Groups form after the current turn of the event loop, so the commands whose requests were
   * read in the same turn start together; a group starts whenever fewer than maxGroups write.
   */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      while (this.writing < this.settings.maxGroups && this.waiting.length > 0) {
        const members = this.waiting.splice(0, this.settings.maxMembers);
        this.writing += 1;
        void this.runGroup(members).finally(() => {
          this.writing -= 1;
          if (this.waiting.length > 0) this.schedule();
        });
      }
    });
  }

  private async runGroup(members: Member<P>[]): Promise<void> {
    if (members.length === 1) {
      await this.alone(members[0]!);
      return;
    }
    let client: pg.PoolClient;
    try {
      client = await this.store.pool.connect();
    } catch (err) {
      for (const m of members) m.failed(err);
      return;
    }
    const locks = new GroupLocks();
    // A lock the write itself takes (a stream no member locked) is only tried too.
    const writer = new StoreSession(client, this.store, locks);
    let prepared: Prepared<P>[] = [];
    let written: Member<P>[] = [];
    try {
      await writer.begin();
      prepared = await Promise.all(
        members.map((member) => {
          const session = new StoreSession(client, this.store, locks);
          return member.prepare(session).then(
            (part): Prepared<P> => {
              // The group's append moves the streams this member locked at their versions.
              writer.holdsLocksOf(session);
              return { kind: 'part', member, part };
            },
            (err: unknown): Prepared<P> =>
              err instanceof LockBusy ? { kind: 'busy', member } : { kind: 'error', member, err },
          );
        }),
      );
      // A statement that failed aborted the whole transaction: nobody's reads can be trusted.
      const failed = prepared.find((p) => p.kind === 'error' && rolledBackBy(p.err));
      if (failed && failed.kind === 'error') throw failed.err;
      const parts = prepared.flatMap((p) => (p.kind === 'part' ? [p] : []));
      if (parts.length > 0)
        await this.write(
          writer,
          parts.map((p) => p.part),
        );
      await writer.commit();
      written = parts.map((p) => p.member);
    } catch (err) {
      await writer.settled();
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
      if (!rolledBackBy(err)) {
        // The connection failed (at the commit, perhaps after it): the outcome is unknown.
        for (const m of members) m.failed(err);
        return;
      }
      this.counts.fallbacks += 1;
      // Each on a connection of its own, outside the group's place (alone never throws).
      for (const m of members) void this.alone(m);
      return;
    }
    client.release();
    this.counts.groups += 1;
    this.counts.grouped += written.length;
    for (const m of written) m.committed(writer.position);
    for (const p of prepared) if (p.kind === 'error') p.member.failed(p.err);
    // After the commit, its locks are gone: those that found a stream held wait for nobody here,
    // and the next group need not wait for them.
    const busy = prepared.flatMap((p) => (p.kind === 'busy' ? [p.member] : []));
    this.counts.busy += busy.length;
    for (const m of busy) void this.alone(m);
  }

  /** One command in a transaction of its own, waiting for its locks as every writer does. */
  private async alone(member: Member<P>): Promise<void> {
    this.counts.alone += 1;
    try {
      const { position } = await this.store.transaction(async (s) => {
        const part = await member.prepare(s);
        await this.write(s, [part]);
      });
      member.committed(position);
    } catch (err) {
      member.failed(err);
    }
  }
}

/**
 * Whether the error certainly left the transaction rolled back: the database refused a statement
 * (the transaction is aborted and its commit rolls back), a stream was not at its version, or a
 * lock was busy in the write. Anything else (a lost connection) leaves the commit's outcome unknown.
 */
const rolledBackBy = (err: unknown): boolean =>
  err instanceof pg.DatabaseError || err instanceof ConcurrencyError || err instanceof LockBusy;
