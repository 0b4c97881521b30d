import type { EventHandlers, NewEvent, StoreSession } from '@rr/events';

/**
 * The transaction an inline projection moves its table in: `send` for its writes (their answers
 * are not awaited: they go with the append and the commit, StoreSession.send), `client` for the
 * reads a write depends on (their answers come after every write sent before them).
 */
export type InlineTransaction = Pick<StoreSession, 'client' | 'send'>;

/** An event being appended, with the stream it goes to. */
export interface AppendedEvent {
  streamId: string;
  event: NewEvent;
}

/**
 * A table beside the log moved by the events of the command that appends them, in its
 * transaction: never behind the log (unlike the read models, which projections fill after the
 * commit). It gets the events of the types it handles, in append order, once per command.
 */
export interface InlineProjection {
  /** The table it moves. */
  table: string;
  handles: ReadonlySet<string>;
  /** `at`: the instant the events are recorded at (the store's clock). */
  apply(tx: InlineTransaction, events: readonly AppendedEvent[], at: Date): Promise<void>;
}

/** What an inline projection's handlers fold a command's events into; `streamId` is the event's. */
export interface InlineFold {
  streamId: string;
}

/**
 * An inline projection from its handlers (`handlersFor(...streams).with<Fold, void, NewEvent>`:
 * every type of its streams handled or ignored), which fold a command's events in append order
 * into a fresh `start()`, and `write`, which moves the table by the fold.
 */
export function inlineProjection<F extends InlineFold>(p: {
  table: string;
  handlers: EventHandlers<F, void, NewEvent>;
  start: () => F;
  write(tx: InlineTransaction, fold: F, at: Date): Promise<void>;
}): InlineProjection {
  return {
    table: p.table,
    handles: p.handlers.handles,
    async apply(tx, events, at) {
      const fold = p.start();
      for (const { streamId, event } of events) {
        fold.streamId = streamId;
        p.handlers.handle(event, fold);
      }
      await p.write(tx, fold, at);
    },
  };
}
