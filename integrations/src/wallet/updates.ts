import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import {
  appliedBy,
  handlersFor,
  ignore,
  timeSlotStream,
  type Projection,
  type RecordedEvent,
  type Step,
} from '@rr/events';
import {
  startIntervalJob,
  type CheckInCodes,
  type Clock,
  type IntervalJob,
  type Logger,
  type Pool,
  type PoolClient,
  type WalletConfig,
} from '@rr/platform';
import { bookedOwnerBefore } from '../booked-owner.ts';
import { chainFirstsSql } from '../ticket-chain.ts';
import { deadlineAfter } from '../outbound-request.ts';
import { applePassSignerOf, type ApplePassSigner } from './apple.ts';
import { ApnsSession } from './apns.ts';
import { googleEventTicketObject, googleObjectId, googleWalletSignerOf } from './google.ts';
import { GoogleWalletApi } from './google-api.ts';
import { walletBarcodeOf, walletTicketOf } from './ticket.ts';

/*
 * Updates of saved wallet passes (docs/product.md#wallet-passes): when a ticket is moved or ends
 * (cancelled, not confirmed in time, released as a no-show), the wallet reactor writes an update
 * to the outbox `wallet_updates`, and the update job sends it: a push through Apple's push
 * service to each device registered for the pass (which then fetches it from the web service,
 * web-service.ts), and a PATCH of the Google Wallet object whose save link was handed out.
 * Nothing on a request's or projection's path waits for the network.
 */

/** How long one attempt may take (every push and the PATCH of one update). */
export const WALLET_UPDATE_TIMEOUT_MS = 15_000;
/** How long a claimed update is its sender's: far longer than an attempt. */
export const WALLET_UPDATE_LEASE_MS = 2 * 60_000;
/** Attempts of one update at most; the delays before the 2nd, 3rd, …: growing. */
export const WALLET_UPDATE_RETRY_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000];
/**
 * The read models show the change shortly after the event; an update waits for them (the pass
 * is made from them), looked at again in the job's next round, and is given up after this.
 */
export const WALLET_READ_MODEL_WAIT_MS = 10 * 60_000;
const BATCH = 20;

/**
 * Enqueues the update of a ticket's passes, when its owner has any: a pass a device registered
 * or a Google object handed out. The id is the event's: a replayed batch writes nothing twice.
 * `seatId`: the seat a seat change moved the ticket to, which the update waits to see.
 */
async function enqueue(
  client: PoolClient,
  event: RecordedEvent,
  d: { ticketId: string; ownerId: string; seatId?: string },
): Promise<void> {
  await client.query(
    `INSERT INTO wallet_updates (id, owner_id, ticket_id, created_at, next_attempt_at, seat_id)
     SELECT $1, $2, $3, $4, $4, $5
      WHERE EXISTS (SELECT 1 FROM wallet_apple_passes WHERE owner_id = $2)
         OR EXISTS (SELECT 1 FROM wallet_google_objects WHERE owner_id = $2)
     ON CONFLICT (id) DO NOTHING`,
    [event.eventId, d.ownerId, d.ticketId, event.createdAt, d.seatId ?? null],
  );
}

/**
 * A booked ticket moved to another seat of its slot (the desk, its visitor, a seat out of service
 * or leaving the plan): its passes name the seat. Its owner is its booking's, found in the log
 * (a hold moved before its booking has none, and no pass).
 */
async function seatChanged(
  client: PoolClient,
  event: RecordedEvent & { data: { ticketId: string; seat: { seatId: string } } },
): Promise<void> {
  const { ticketId, seat } = event.data;
  const ownerId = await bookedOwnerBefore(client, event, ticketId);
  if (ownerId) await enqueue(client, event, { ticketId, ownerId, seatId: seat.seatId });
}

const walletHandlers = handlersFor(timeSlotStream).with<PoolClient, Step>({
  TimeSlotCreated: ignore,
  TimeSlotUpdated: ignore,
  TimeSlotCapacityChanged: ignore,
  TimeSlotSeatsChosen: ignore,
  // A deleted slot's tickets are cancelled each with an event of their own.
  TimeSlotDeleted: ignore,
  TimeSlotClosed: ignore,
  TicketHeld: ignore,
  TicketHoldExtended: ignore,
  TicketReleased: ignore,
  TicketBooked: ignore,
  // A move cancels the old ticket naming the new one: the pass shows the new slot.
  TicketCancelled: (e, client) => enqueue(client, e, e.data),
  TicketCheckedIn: ignore,
  TicketCheckInUndone: ignore,
  TicketNoShowReleased: (e, client) => enqueue(client, e, e.data),
  TicketConfirmed: ignore,
  TicketConfirmationLapsed: (e, client) => enqueue(client, e, e.data),
  TicketSeatChanged: (e, client) => seatChanged(client, e),
  WaitlistJoined: ignore,
  SeatOffered: ignore,
  SeatOfferLapsed: ignore,
  SeatOfferTaken: ignore,
  WaitlistEntryErased: ignore,
  WaitlistLeft: ignore,
  WaitlistEntryRemovedByStaff: ignore,
  WaitlistEntryPassedOver: ignore,
  WaitlistEntryBackInLine: ignore,
});

/** The wallet reactor: fills the wallet update outbox from the log, on its own checkpoint. */
export const walletReactor: Projection = {
  name: 'wallet-updates',
  tables: [],
  quietCheckpoint: true,
  ...appliedBy(walletHandlers),
};

export interface WalletUpdaterOptions {
  pool: Pool;
  clock: Clock;
  logger: Logger;
  config: WalletConfig;
  timeZone: string;
  checkInCodes: CheckInCodes;
  intervalMs: number;
}

interface DueRow {
  id: string;
  owner_id: string;
  ticket_id: string;
  /** The seat of a seat change's update (null: a move to another slot or an end). */
  seat_id: string | null;
  attempts: number;
  created_at: Date;
}

const CLAIM = `
  UPDATE wallet_updates SET leased_until = $2, lease_owner = $3
   WHERE id IN (SELECT id FROM wallet_updates
                 WHERE status = 'pending' AND next_attempt_at <= $1
                   AND (leased_until IS NULL OR leased_until <= $1)
                 ORDER BY next_attempt_at, created_at LIMIT $4 FOR UPDATE SKIP LOCKED)
  RETURNING id, owner_id, ticket_id, seat_id, attempts, created_at`;

/** The outcome of one attempt: done, wait for the read models, or failed (retried). */
type Attempt = { kind: 'done' } | { kind: 'not-ready' } | { kind: 'failed'; error: string };

/**
 * The wallet update job: sends the due updates outside any transaction, each push and PATCH
 * under one deadline per update. Apple's 410 (the device gave the pass up) ends that
 * registration; Google's 404 (the link was never used to save the object) needs nothing. Other
 * failures try the whole update again after growing delays, at most as many times as there are
 * delays and one (a push or a PATCH sent twice changes nothing).
 */
export class WalletUpdater {
  private job: IntervalJob | null = null;
  private readonly stopping = new AbortController();
  private readonly apple: ApplePassSigner | null;
  private readonly apns: ApnsSession | null;
  private readonly google: GoogleWalletApi | null;
  private readonly googleSigner: ReturnType<typeof googleWalletSignerOf>;

  constructor(private readonly o: WalletUpdaterOptions) {
    const { config } = o;
    this.apple = applePassSignerOf(config);
    this.apns = this.apple
      ? new ApnsSession({
          origin: config.WALLET_APNS_ORIGIN,
          signer: this.apple,
          ca: config.WALLET_APNS_CA_FILE ? readFileSync(config.WALLET_APNS_CA_FILE) : undefined,
          timeoutMs: WALLET_UPDATE_TIMEOUT_MS,
        })
      : null;
    this.googleSigner = googleWalletSignerOf(config);
    const apiUrl = config.GOOGLE_WALLET_API_URL;
    this.google = this.googleSigner
      ? new GoogleWalletApi({
          signer: this.googleSigner,
          apiUrl: apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`,
          tokenUrl: config.GOOGLE_WALLET_TOKEN_URL,
          clock: o.clock,
        })
      : null;
  }

  start(): void {
    this.job = startIntervalJob(
      'wallet-updates',
      () => this.sendDue(),
      this.o.intervalMs,
      this.o.logger,
    );
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.job?.stop();
    this.apns?.close();
  }

  /** Sends what is due now (one batch after another); answers how many it looked at. */
  async sendDue(): Promise<number> {
    let seen = 0;
    try {
      while (!this.stopping.signal.aborted) {
        const lease = randomUUID();
        const now = this.o.clock.now();
        const claimed = await this.o.pool.query<DueRow>(CLAIM, [
          now,
          new Date(now.getTime() + WALLET_UPDATE_LEASE_MS),
          lease,
          BATCH,
        ]);
        await Promise.all(
          claimed.rows.map((row) =>
            this.deliver(row, lease).catch((err: unknown) =>
              this.o.logger.warn(
                { wallet: row.id, err: String(err) },
                'wallet update not recorded',
              ),
            ),
          ),
        );
        seen += claimed.rows.length;
        if (claimed.rows.length < BATCH) break;
      }
    } finally {
      // One session per round: none stays open between rounds.
      this.apns?.close();
    }
    return seen;
  }

  /** Sends one update and records the outcome; answers whether it waits for the read models. */
  private async deliver(row: DueRow, lease: string): Promise<boolean> {
    const deadline = deadlineAfter(WALLET_UPDATE_TIMEOUT_MS, this.stopping.signal);
    let outcome: Attempt;
    try {
      outcome = await this.attempt(row, deadline.signal);
    } catch (err) {
      outcome = { kind: 'failed', error: String(err) };
    } finally {
      deadline.clear();
    }
    const now = this.o.clock.now();
    if (this.stopping.signal.aborted && outcome.kind !== 'done') {
      await this.o.pool.query(
        'UPDATE wallet_updates SET leased_until = NULL, lease_owner = NULL WHERE id = $1 AND lease_owner = $2',
        [row.id, lease],
      );
      return false;
    }
    if (outcome.kind === 'done') {
      await this.o.pool.query(
        `UPDATE wallet_updates SET status = 'sent', attempts = attempts + 1, done_at = $3,
                last_error = NULL, leased_until = NULL, lease_owner = NULL
          WHERE id = $1 AND lease_owner = $2`,
        [row.id, lease, now],
      );
      this.o.logger.info({ wallet: row.id }, 'wallet passes updated');
      return false;
    }
    if (outcome.kind === 'not-ready') {
      const givenUp = now.getTime() - row.created_at.getTime() > WALLET_READ_MODEL_WAIT_MS;
      await this.o.pool.query(
        `UPDATE wallet_updates SET status = CASE WHEN $3 THEN 'failed' ELSE status END,
                last_error = CASE WHEN $3 THEN 'the read models did not show the change' END,
                leased_until = NULL, lease_owner = NULL
          WHERE id = $1 AND lease_owner = $2`,
        [row.id, lease, givenUp],
      );
      return !givenUp;
    }
    const failures = row.attempts + 1;
    const delay = WALLET_UPDATE_RETRY_DELAYS_MS[failures - 1];
    await this.o.pool.query(
      `UPDATE wallet_updates SET attempts = attempts + 1, last_error = $3,
              status = CASE WHEN $4::timestamptz IS NULL THEN 'failed' ELSE status END,
              next_attempt_at = coalesce($4, next_attempt_at), leased_until = NULL, lease_owner = NULL
        WHERE id = $1 AND lease_owner = $2`,
      [
        row.id,
        lease,
        outcome.error.slice(0, 1000),
        delay === undefined ? null : new Date(now.getTime() + delay),
      ],
    );
    this.o.logger.warn(
      { wallet: row.id, attempts: failures, error: outcome.error },
      delay === undefined
        ? 'wallet update not sent; given up'
        : 'wallet update not sent; will retry',
    );
    return false;
  }

  /** One attempt: the pass's serial once the read models show the change, then its wallets. */
  private async attempt(row: DueRow, signal: AbortSignal): Promise<Attempt> {
    const { pool } = this.o;
    const r = await pool.query<{ first_id: string; ready: boolean }>(
      // Ready once the read models show the change: the ticket's end (its move to another slot
      // with the new ticket), or the seat it was moved to (an end since shows as well). A seat
      // change the ticket has made since (beside the log, never behind it) has an update of its
      // own, which waits for its seat: this one need not wait for a seat no longer the ticket's.
      `WITH RECURSIVE ${chainFirstsSql('t.id = $2')}
       SELECT c.first_id, ((t.status <> 'BOOKED' AND (t.moved_to IS NULL OR EXISTS (
                SELECT 1 FROM rm_tickets m WHERE m.id = t.moved_to)))
              OR t.seat_id = $3::uuid
              OR EXISTS (SELECT 1 FROM ticket_state s
                          WHERE s.ticket_id = t.id AND s.moved_seat_id <> $3::uuid)) AS ready
         FROM chain_firsts c JOIN rm_tickets t ON t.id = c.ticket_id`,
      [row.owner_id, row.ticket_id, row.seat_id],
    );
    const found = r.rows[0];
    if (!found?.ready) return { kind: 'not-ready' };
    const serial = found.first_id;
    const errors: string[] = [];
    if (this.apple && this.apns) {
      // The pass's change is recorded first: the device that is told asks for it at once.
      const changed = await pool.query(
        'UPDATE wallet_apple_passes SET updated_at = $2 WHERE serial = $1',
        [serial, this.o.clock.now()],
      );
      if (changed.rowCount) {
        const devices = await pool.query<{
          device_id: string;
          pass_type_id: string;
          push_token: string;
        }>(
          `SELECT device_id, pass_type_id, push_token FROM wallet_apple_registrations
            WHERE serial = $1 AND pass_type_id = $2`,
          [serial, this.apple.passTypeId],
        );
        for (const d of devices.rows) {
          const outcome = await this.apns.push(d.push_token, signal);
          if (outcome.status === 200) continue;
          if (outcome.status === 410) {
            // The device no longer has the pass (or the token): its registration ends.
            await pool.query(
              `DELETE FROM wallet_apple_registrations
                WHERE device_id = $1 AND pass_type_id = $2 AND serial = $3 AND push_token = $4`,
              [d.device_id, d.pass_type_id, serial, d.push_token],
            );
            continue;
          }
          errors.push(`APNs ${outcome.status ?? '-'}: ${outcome.error ?? ''}`);
        }
      }
    }
    if (this.google && this.googleSigner) {
      const handed = await pool.query('SELECT 1 FROM wallet_google_objects WHERE serial = $1', [
        serial,
      ]);
      if (handed.rowCount) {
        const ticket = await walletTicketOf(pool, row.owner_id, serial);
        const { classId: _classId, ...fields } = googleEventTicketObject(ticket, {
          signer: this.googleSigner,
          timeZone: this.o.timeZone,
          barcode: walletBarcodeOf(ticket, this.o.checkInCodes),
        });
        const outcome = await this.google.patchEventTicketObject(
          googleObjectId(this.googleSigner, serial),
          fields,
          signal,
        );
        // 404: the visitor never saved the object; nothing to update.
        if (outcome.status !== 200 && outcome.status !== 404)
          errors.push(`Google Wallet ${outcome.status ?? '-'}: ${outcome.error ?? ''}`);
      }
    }
    return errors.length ? { kind: 'failed', error: errors.join('; ') } : { kind: 'done' };
  }
}
