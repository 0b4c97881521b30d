import { Refused, type SeatRule, type SeatWish } from '@rr/domain';
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
  private pendingSeats = new Map<string, PendingSeatRefusal>();
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
   * rule, a full slot, a slot not open) or the seat wish's (`seat__taken`, `seat__none_matching`,
   * with the attributes asked for or those of the seat asked for); other errors are no demand
   * for a seat.
   */
  note(err: unknown, cartId: string, slot: RefusedPlace | undefined, wish?: SeatWish): void {
    if (!slot || !(err instanceof Refused)) return;
    const refusal = err.refusal;
    if (refusal.code === 'seat__taken' || refusal.code === 'seat__none_matching') {
      this.noteSeat(refusal.code, cartId, slot, wish);
      return;
    }
    if (refusal.code !== 'ticket__validation_error') return;
    const rule: SeatRule = refusal.rule;
    const cartKey = cartKeyOf(cartId);
    const key = `${slot.timeSlotId}|${cartKey}|${rule}`;
    const known = this.pending.get(key);
    if (known) {
      known.attempts += 1;
      return;
    }
    if (!this.hasRoom()) return;
    this.pending.set(key, {
      timeSlotId: slot.timeSlotId,
      roomId: slot.roomId,
      date: slot.date,
      cartKey,
      rule,
      at: this.clock.now().toISOString(),
      attempts: 1,
    });
    this.writing ??= this.write();
  }

  /** A seat wish refused: the wish is the seat asked for or the attributes, sorted. */
  private noteSeat(
    rule: SeatWishRule,
    cartId: string,
    slot: RefusedPlace,
    wish: SeatWish | undefined,
  ): void {
    const seatId = wish?.seatId;
    const attributes = seatId
      ? [...(slot.seats?.find((s) => s.seatId === seatId)?.attributes ?? [])]
      : [...(wish?.attributes ?? [])];
    attributes.sort();
    const wished = seatId ? `seat:${seatId}` : `attributes:${attributes.join(',')}`;
    const cartKey = cartKeyOf(cartId);
    const key = `${slot.timeSlotId}|${cartKey}|${rule}|${wished}`;
    const known = this.pendingSeats.get(key);
    if (known) {
      known.attempts += 1;
      return;
    }
    if (!this.hasRoom()) return;
    this.pendingSeats.set(key, {
      timeSlotId: slot.timeSlotId,
      roomId: slot.roomId,
      date: slot.date,
      cartKey,
      rule,
      wish: wished,
      attributes,
      at: this.clock.now().toISOString(),
      attempts: 1,
    });
    this.writing ??= this.write();
  }

  /** Whether another row may wait to be written; counts (and now and then logs) one dropped. */
  private hasRoom(): boolean {
    if (this.pending.size + this.pendingSeats.size < this.maxPending) return true;
    this.dropped += 1;
    if (this.dropped === 1 || this.dropped % 1000 === 0)
      this.logger.warn({ dropped: this.dropped }, 'cart refusals dropped: the record is behind');
    return false;
  }

  /** Resolves once every refusal noted so far is written (for shutdown and tests). */
  async settled(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async write(): Promise<void> {
    try {
      while (this.pending.size > 0 || this.pendingSeats.size > 0) {
        const rows = [...this.pending.values()];
        const seatRows = [...this.pendingSeats.values()];
        this.pending = new Map();
        this.pendingSeats = new Map();
        if (seatRows.length > 0) await this.writeSeats(seatRows);
        if (rows.length === 0) continue;
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

  private async writeSeats(rows: PendingSeatRefusal[]): Promise<void> {
    try {
      await this.pool.query(
        `INSERT INTO cart_seat_refusals (time_slot_id, cart_key, rule, wish, room_id, date,
                                         attributes, first_refused_at, attempts)
         SELECT r.time_slot_id, r.cart_key, r.rule, r.wish, r.room_id, r.date,
                coalesce(array(SELECT jsonb_array_elements_text(r.attributes)), '{}'),
                r.at, r.attempts
           FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::uuid[], $6::date[],
                       $7::jsonb[], $8::timestamptz[], $9::int[])
             AS r(time_slot_id, cart_key, rule, wish, room_id, date, attributes, at, attempts)
         ON CONFLICT (time_slot_id, cart_key, rule, wish)
         DO UPDATE SET attempts = cart_seat_refusals.attempts + excluded.attempts`,
        [
          rows.map((r) => r.timeSlotId),
          rows.map((r) => r.cartKey),
          rows.map((r) => r.rule),
          rows.map((r) => r.wish),
          rows.map((r) => r.roomId),
          rows.map((r) => r.date),
          rows.map((r) => JSON.stringify(r.attributes)),
          rows.map((r) => r.at),
          rows.map((r) => r.attempts),
        ],
      );
    } catch (err) {
      this.logger.warn({ err, rows: rows.length }, 'cart seat refusals not recorded');
    }
  }
}

/** Where a refused add wanted its seat: the slot, and the seats of its room's plan (if any). */
export interface RefusedPlace {
  timeSlotId: string;
  roomId: string;
  date: string;
  seats?: readonly { seatId: string; attributes: readonly string[] }[] | undefined;
}

type SeatWishRule = 'seat__taken' | 'seat__none_matching';

interface PendingSeatRefusal {
  timeSlotId: string;
  roomId: string;
  date: string;
  cartKey: string;
  rule: SeatWishRule;
  wish: string;
  attributes: string[];
  at: string;
  attempts: number;
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
