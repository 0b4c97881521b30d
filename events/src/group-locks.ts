import { LockBusy } from './types.ts';

/**
 * The stream locks of a commit group's members (commit-group.ts), which share one transaction:
 * which member's session locked each stream. A member's locks are only tried (it never waits,
 * see LockBusy), and a stream another member locked is busy for it, although the database, whose
 * advisory locks belong to the connection, would grant it again.
 */
export class GroupLocks {
  private readonly holders = new Map<string, object>();

  /** Claims the streams for the member, or throws LockBusy; answers true: only try the locks. */
  claim(member: object, streamIds: readonly string[]): boolean {
    const taken = streamIds.find((id) => (this.holders.get(id) ?? member) !== member);
    if (taken !== undefined) throw new LockBusy(taken);
    for (const id of streamIds) this.holders.set(id, member);
    return true;
  }
}

/**
 * A call of a stream lock function (a prepared statement of its name): in a commit group its
 * variant that only tries the locks (rr_try_…, migration 083), otherwise the one that waits.
 */
export const lockCall = (
  tryOnly: boolean,
  fn: 'lock_stream' | 'lock_read_streams',
  text: (fn: string) => string,
  values: unknown[],
) => {
  const name = tryOnly ? `rr_try_${fn}` : `rr_${fn}`;
  return { name, text: text(name), values };
};
