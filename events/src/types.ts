import type { Position } from './position.ts';

export type Actor =
  | { kind: 'visitor' }
  | { kind: 'admin'; username: string }
  | { kind: 'system'; job: string }
  /** A machine with an API token, named by the token's id and name. */
  | { kind: 'api-token'; tokenId: string; name: string };

export interface EventMetadata {
  correlationId: string;
  causationId: string | null;
  actor: Actor;
  /** Version of the event's data shape; older shapes are upcast when read. */
  schemaVersion: number;
}

export interface NewEvent<T extends string = string, D = unknown> {
  type: T;
  data: D;
  eventId?: string;
  metadata?: Partial<EventMetadata>;
}

export interface RecordedEvent<T extends string = string, D = unknown> {
  type: T;
  data: D;
  eventId: string;
  streamId: string;
  streamVersion: number;
  position: Position;
  metadata: EventMetadata;
  createdAt: Date;
}

export type ExpectedVersion = 'any' | 'no_stream' | 'stream_exists' | number;

export interface AppendRequest {
  streamId: string;
  streamType: string;
  expectedVersion: ExpectedVersion;
  events: NewEvent[];
}

export interface AppendResult {
  /** Position of the last event written: what read-your-writes waits for. */
  position: Position;
  streams: { streamId: string; version: number }[];
}

/**
 * A statement sent under a name: each connection prepares it on its first use and runs the
 * prepared one after (no parse, and a plan kept once PostgreSQL finds a generic one as good).
 */
export interface NamedStatement {
  name: string;
  text: string;
}

export class ConcurrencyError extends Error {
  override name = 'ConcurrencyError';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedVersion,
    readonly actual: number | null,
  ) {
    super(
      `Stream ${streamId}: expected version ${String(expected)}, actual ${actual === null ? 'no stream' : actual}`,
    );
  }
}

/**
 * A command of a commit group wanted a stream whose lock another transaction or another member of
 * its group holds: it leaves the group, whose commit must never wait for a lock, and runs alone.
 */
export class LockBusy extends Error {
  override name = 'LockBusy';
  constructor(readonly streamId: string) {
    super(`Stream ${streamId} is locked by another writer`);
  }
}

/** The one clock of the process (platform's Clock): events are recorded at its time. */
export interface EventClock {
  now(): Date;
}
