/**
 * A position in commit order: the writing transaction's id and the event's global position.
 * Subscriptions and checkpoints compare positions as the pair (tx, gp), never gp alone, because
 * global positions are handed out before commit and can commit out of order.
 */
export interface Position {
  tx: bigint;
  gp: bigint;
}

export const START: Position = { tx: 0n, gp: 0n };

export function comparePositions(a: Position, b: Position): number {
  if (a.tx !== b.tx) return a.tx < b.tx ? -1 : 1;
  if (a.gp !== b.gp) return a.gp < b.gp ? -1 : 1;
  return 0;
}

/** The position as a token for clients (command answers, X-Min-Position header). */
export function formatPosition(p: Position): string {
  return `${p.tx}_${p.gp}`;
}

export function parsePosition(token: string): Position | null {
  const m = /^(\d{1,20})_(\d{1,20})$/.exec(token.trim());
  if (!m) return null;
  return { tx: BigInt(m[1]!), gp: BigInt(m[2]!) };
}
