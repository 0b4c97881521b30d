import type { NewEvent, RecordedEvent } from '../types.ts';
import type { EventOf, StreamDefinition } from './define.ts';

/** Marks an event type a consumer has decided to pass over (in a handler map, see handlersFor). */
export const ignore = Symbol('ignore');
export type Ignore = typeof ignore;

/** A consumer's handler of one event type: the event typed by its type, and the consumer's context. */
export type Handler<
  E extends StreamEventShape,
  Ctx = void,
  Out = void,
  R extends NewEvent = RecordedEvent,
> = (event: R & E, ctx: Ctx) => Out;

/** An event of a stream as its union names it (see EventOf). */
type StreamEventShape = { type: string; data: unknown };

/**
 * A consumer's decision for every event type of its streams: a handler, or `ignore`. A type added
 * to a stream fails to compile in every handler map of that stream until its consumer decides.
 */
export type HandlerMap<
  E extends StreamEventShape,
  Ctx = void,
  Out = void,
  R extends NewEvent = RecordedEvent,
> = { readonly [T in E['type']]: Handler<Extract<E, { type: T }>, Ctx, Out, R> | Ignore };

/** A handler map made callable: what a projection, a reactor or a fold runs its events through. */
export interface EventHandlers<Ctx = void, Out = void, R extends NewEvent = RecordedEvent> {
  /** The event types with a handler (the others are ignored): a projection's subscription. */
  readonly handles: ReadonlySet<string>;
  /**
   * Runs the handler of the event's type (one map look-up); answers undefined for an ignored type
   * and for a type of other streams.
   */
  handle(event: R, ctx: Ctx): Out | undefined;
}

/**
 * The one way to consume events by type: `handlersFor(timeSlotStream, roomStream).with<Ctx,
 * Out>({ TicketHeld: (e, ctx) => ..., TicketHoldExtended: ignore, ... })`. The map names every
 * type of the streams; each handler gets its event typed by its type (`e.data` as parsed).
 * `R` is the record the events come as: the log's (RecordedEvent, the default) or an append's
 * (NewEvent).
 */
export function handlersFor<const S extends readonly StreamDefinition[]>(...streams: S) {
  const types = new Set(streams.flatMap((s) => s.events.map((d) => d.type)));
  return {
    with<Ctx = void, Out = void, R extends NewEvent = RecordedEvent>(
      map: HandlerMap<EventOf<S[number]>, Ctx, Out, R>,
    ): EventHandlers<Ctx, Out, R> {
      const byType = new Map<string, (event: R, ctx: Ctx) => Out>();
      for (const [type, handler] of Object.entries<Handler<never, Ctx, Out, R> | Ignore>(map)) {
        if (!types.has(type)) throw new Error(`${type} is of none of the streams handled`);
        // Sound as asStreamEvent is (stream-event.ts): a handler is only ever called with an event
        // of its own type, looked up by it, which the catalogue validated against its schema.
        if (handler !== ignore) byType.set(type, handler as (event: R, ctx: Ctx) => Out);
      }
      return {
        handles: new Set(byType.keys()),
        handle: (event, ctx) => byType.get(event.type)?.(event, ctx),
      };
    },
  };
}
