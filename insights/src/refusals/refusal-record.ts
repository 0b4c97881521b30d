import { Refused, type SeatRule } from '@rr/domain';
import { cartKeyOf, type Clock, type Logger, type Pool } from '@rr/platform';

/**
 * The cart requests the seat rule refused, for the insights' unmet demand and the what-if replay
 * (docs/product.md#insights). A refusal appends nothing to the log, so they are recorded beside
 * it in `cart_refusals`: one row per cart, slot and rule (a cart retrying counts once), the cart
 * known only by a hash of its id, nothing of the visitor.
 *
 * Never on the refusal's path: `note` only queues the row and the request answers at once; one
 * write at a time takes the queue with a multi-row upsert. The queue is bounded: beyond
 * `maxPending` rows waiting (the database slow or gone) further refusals are dropped and counted
 * in the log, as a figure missing a few refusals is better than a request waiting for it.
 */
export class RefusalRecorder {
  private pending = new Map<string, PendingRefusal>();
  private writing: Promise<void> | null = null;
  private dropped = 0;

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly maxPending = 1000,
  ) {}

  /**
   * A refused add of a cart to a slot: recorded when the refusal is the seat rule's (a cart
   * rule, a full slot, a slot not open); other errors are no demand for a seat.
   */
  note(
    err: unknown,
    cartId: string,
    slot: { timeSlotId: string; roomId: string; date: string } | undefined,
  ): void {
    if (!slot || !(err instanceof Refused)) return;
    const refusal = err.refusal;
    if (refusal.code !== 'ticket__validation_error') return;
    const rule: SeatRule = refusal.rule;
    const cartKey = cartKeyOf(cartId);
    const key = `${slot.timeSlotId}|${cartKey}|${rule}`;
    const known = this.pending.get(key);
    if (known) {
      known.attempts += 1;
      return;
    }
    if (this.pending.size >= this.maxPending) {
      this.dropped += 1;
      if (this.dropped === 1 || this.dropped % 1000 === 0)
        this.logger.warn({ dropped: this.dropped }, 'cart refusals dropped: the record is behind');
      return;
    }
    this.pending.set(key, {
      ...slot,
      cartKey,
      rule,
      at: this.clock.now().toISOString(),
      attempts: 1,
    });
    this.writing ??= this.write();
  }

  /** Resolves once every refusal noted so far is written (for shutdown and tests). */
  async settled(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async write(): Promise<void> {
    try {
      while (this.pending.size > 0) {
        const rows = [...this.pending.values()];
        this.pending = new Map();
        try {
          await this.pool.query(
            `INSERT INTO cart_refusals (time_slot_id, cart_key, rule, room_id, date, first_refused_at, attempts)
             SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::uuid[], $5::date[],
                                  $6::timestamptz[], $7::int[])
             ON CONFLICT (time_slot_id, cart_key, rule)
             DO UPDATE SET attempts = cart_refusals.attempts + excluded.attempts`,
            [
              rows.map((r) => r.timeSlotId),
              rows.map((r) => r.cartKey),
              rows.map((r) => r.rule),
              rows.map((r) => r.roomId),
              rows.map((r) => r.date),
              rows.map((r) => r.at),
              rows.map((r) => r.attempts),
            ],
          );
        } catch (err) {
          this.logger.warn({ err, rows: rows.length }, 'cart refusals not recorded');
        }
      }
    } finally {
      this.writing = null;
    }
  }
}

interface PendingRefusal {
  timeSlotId: string;
  roomId: string;
  date: string;
  cartKey: string;
  rule: SeatRule;
  at: string;
  attempts: number;
}
