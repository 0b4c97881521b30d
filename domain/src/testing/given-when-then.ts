import { expect } from 'vitest';
import type { Decide } from '../decider.ts';
import { Refused, type RefusalCode } from '../refusal.ts';

/**
 * Decider tests read as given (the state, folded from past events with `history`) / when (the
 * command, in a context) / then (the events, or the refusal):
 *
 *   const room = scenario(decideRoom, { now });
 *   room.given({ room: history(evolveRoom, initialRoomState, created), slotsFromToday: [] })
 *     .when({ type: 'DeleteRoom', data: { roomId } })
 *     .then([RoomDeleted.create({ roomId })]);
 *
 * Deciders are pure, so a test needs no database, clock or HTTP: the context is a value.
 */
export function scenario<Command, State, Context, Decision>(
  decide: Decide<Command, State, Context, Decision>,
  context: Context,
) {
  return {
    given: (state: State) => ({
      when: (command: Command, overrides: Partial<Context> = {}) => {
        const run = () => decide(command, state, { ...context, ...overrides });
        return {
          /** The decision equals `expected` (or passes the check `expected` makes of it). */
          then(expected: Decision | ((decision: Decision) => void)): Decision {
            const decision = run();
            if (typeof expected === 'function') (expected as (d: Decision) => void)(decision);
            else expect(decision).toEqual(expected);
            return decision;
          },
          /** The command is refused with this error code (and, when given, this named data). */
          thenRefused(code: RefusalCode, data?: Record<string, unknown>): Refused {
            let refusal: unknown;
            try {
              run();
            } catch (err) {
              refusal = err;
            }
            expect(refusal, `expected the refusal ${code}`).toBeInstanceOf(Refused);
            const refused = refusal as Refused;
            expect(refused.code).toBe(code);
            if (data) expect(refused.refusal).toMatchObject({ code, ...data });
            return refused;
          },
        };
      },
    }),
  };
}

/** A state folded from past events: the "given" of a test. */
export function history<State, Event>(
  evolve: (state: State, event: Event) => State,
  initial: State,
  ...events: Event[]
): State {
  return events.reduce(evolve, initial);
}
