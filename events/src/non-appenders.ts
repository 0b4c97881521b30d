import type pg from 'pg';

/**
 * The open transactions of this process that append no events, by id. The gap-safe reads of the
 * log stop below the oldest transaction still running, whatever it writes, because a transaction
 * may append events below those already committed after it began; one that marked itself here
 * cannot (the database refuses its append: migration 084), so readers given these ids
 * (`readAfter`'s `ignoring`) read past it. The projection runner marks its outbox reactors'
 * transactions, which catch up after a rush and, on a slow or busy machine, can run far longer
 * than they aim at: every read model would wait for them. Ids stay listed from just after the mark until the transaction has
 * ended; a reader that has not seen an id yet only waits for that transaction, as before.
 */
export class NonAppenders {
  private readonly open = new Set<string>();

  /**
   * Marks the transaction open on `client` as appending no events (to its end) and lists its id;
   * returns the id, to be given to `ended` once the transaction has committed or rolled back.
   */
  async mark(client: Pick<pg.ClientBase, 'query'>): Promise<string> {
    const r = await client.query<{ id: string }>({
      name: 'rr_appends_nothing',
      text: `SELECT set_config('rr.appends_nothing', 'on', true), pg_current_xact_id()::text AS id`,
    });
    const id = r.rows[0]!.id;
    this.open.add(id);
    return id;
  }

  ended(id: string): void {
    this.open.delete(id);
  }

  /** The ids of the marked transactions not yet ended. */
  ids(): string[] {
    return [...this.open];
  }
}
