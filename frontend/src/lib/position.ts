/**
 * Event-store positions arrive as tokens `tx_gp`: the writing transaction's id and the event's
 * global position, compared as the pair (tx, gp) in that order, each as BigInt (they may exceed
 * 2^53). Used for read-your-writes: the highest seen position is sent as `X-Min-Position` on reads.
 */

const POSITION = /^(\d{1,20})_(\d{1,20})$/;

export function isPosition(value: unknown): value is string {
  return typeof value === 'string' && POSITION.test(value);
}

function parts(token: string): [bigint, bigint] {
  const m = POSITION.exec(token)!;
  return [BigInt(m[1]!), BigInt(m[2]!)];
}

/** -1, 0 or 1 as position a is before, equal to or after position b. */
export function comparePositions(a: string, b: string): number {
  const [atx, agp] = parts(a);
  const [btx, bgp] = parts(b);
  if (atx !== btx) return atx < btx ? -1 : 1;
  if (agp !== bgp) return agp < bgp ? -1 : 1;
  return 0;
}

const normalise = (token: string) => {
  const [tx, gp] = parts(token);
  return `${tx}_${gp}`;
};

/** The later of two positions; an invalid candidate leaves the current one unchanged. */
export function maxPosition(current: string | null, candidate: unknown): string | null {
  if (!isPosition(candidate)) return current;
  if (current === null || comparePositions(candidate, current) > 0) return normalise(candidate);
  return current;
}

/** The `position` member of a command answer, if it has a valid one. */
export function positionOf(body: unknown): string | null {
  if (body === null || typeof body !== 'object' || !('position' in body)) return null;
  return maxPosition(null, body.position);
}
