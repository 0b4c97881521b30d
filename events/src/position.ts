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

/** The least of position tokens (one that does not parse is passed over); null for none. */
export function leastPosition(tokens: readonly string[]): string | null {
  let least: { token: string; at: Position } | null = null;
  for (const token of tokens) {
    const at = parsePosition(token);
    if (at && (!least || comparePositions(at, least.at) < 0)) least = { token, at };
  }
  return least?.token ?? null;
}

export function parsePosition(token: string): Position | null {
  const m = /^(\d{1,20})_(\d{1,20})$/.exec(token.trim());
  if (!m) return null;
  return { tx: BigInt(m[1]!), gp: BigInt(m[2]!) };
}
