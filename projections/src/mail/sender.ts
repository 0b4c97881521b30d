import { randomUUID } from 'node:crypto';
import { mkdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import {
  claimDueMail,
  deferMail,
  markMailSent,
  releaseMailLease,
  skipMail,
  mailFileName,
  type WaitlistReferences,
  type MyBookingsLinks,
  type Logger,
  startIntervalJob,
  type IntervalJob,
} from '@rr/platform';
import {
  loadBookingMail,
  type BookingMailDeps,
  type Loaded,
  type OutboxRow,
} from './booking-mail.ts';
import { redactedSendError, sendErrorCode } from './redact.ts';
import { loadJoinMail, loadOfferMail, loadWaitlistClosedMail } from './waitlist-offer.ts';
import { loadMyBookingsMail } from './my-bookings-link.ts';
import { enqueueConfirmationLinks } from './confirmation-links.ts';

export interface MailSenderOptions extends BookingMailDeps {
  logger: Logger;
  /** SMTP URL; without it mails are written as .eml files into mailDir. */
  smtpUrl: string | undefined;
  mailDir: string;
  from: string;
  /** Base of the visitor app for the confirmation link, e.g. https://library.example/reservation/. */
  publicBaseUrl: string;
  timeZone: string;
  intervalMs: number;
  /** The references of waitlist entries, for the leave link of the joining mail. */
  waitlistReferences: WaitlistReferences;
  /** The links of "my bookings" mails. */
  myBookingsLinks: MyBookingsLinks;
  /** How long a claimed mail stays this sender's (default MAIL_LEASE_MS). */
  leaseMs?: number;
}

/** SMTP settings from a URL (smtp://user:pass@host:port, smtps:// for TLS), with short timeouts. */
function smtpOptions(url: string) {
  const u = new URL(url);
  const secure = u.protocol === 'smtps:';
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    ...(u.username
      ? { auth: { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } }
      : {}),
    ignoreTLS: u.searchParams.get('ignoreTLS') === 'true',
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  };
}

/**
 * How long a claimed mail belongs to its sender: far longer than one SMTP attempt (connection and
 * greeting 10 s each, 20 s of silence per command), so a live sender always records its result
 * first; after a crash, the mail is tried again once the lease has run out.
 */
export const MAIL_LEASE_MS = 5 * 60_000;

/**
 * Sends the outbox, one mail at a time: claim it with a lease (a short statement), load its data
 * and send it outside any transaction and without holding a pooled connection, then record the
 * result in another short statement, only while the lease is still this attempt's (a late result
 * of an expired lease never overwrites another sender's). No transaction stays open across the
 * network: the read models' gap-safe subscriptions wait behind the oldest open transaction, so a
 * hung SMTP server must not hold one. An SMTP failure leaves the mail pending with a growing
 * delay; a booking never depends on the mail.
 */
export class MailSender {
  private readonly transport: Transporter;
  private readonly leaseMs: number;
  private job: IntervalJob | null = null;
  /** Aborted by stop(): the round running ends after the mail it is sending. */
  private readonly stopping = new AbortController();

  constructor(private readonly o: MailSenderOptions) {
    this.transport = o.smtpUrl
      ? nodemailer.createTransport(smtpOptions(o.smtpUrl))
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
    this.leaseMs = o.leaseMs ?? MAIL_LEASE_MS;
  }

  start(): void {
    this.job = startIntervalJob('mail', () => this.sendDue(), this.o.intervalMs, this.o.logger);
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.job?.stop();
    this.transport.close();
  }

  /** Sends every due mail (a failed one is deferred with back-off, the others still go); answers how many were sent. */
  async sendDue(max = 100): Promise<number> {
    await enqueueConfirmationLinks(this.o.pool, this.o.clock.now());
    let sent = 0;
    for (let i = 0; i < max && !this.stopping.signal.aborted; i++) {
      const outcome = await this.sendOne();
      if (outcome === 'none') break;
      if (outcome === 'sent') sent += 1;
    }
    return sent;
  }

  private async sendOne(): Promise<'none' | 'sent' | 'failed' | 'skipped'> {
    const lease = randomUUID();
    const now = this.o.clock.now();
    const row = await claimDueMail<OutboxRow['kind']>(
      this.o.pool,
      now,
      new Date(now.getTime() + this.leaseMs),
      lease,
    );
    if (!row) return 'none';
    let input: Loaded | null;
    try {
      input =
        row.kind === 'waitlist-offer'
          ? await loadOfferMail(
              this.o.pool,
              row.owner_id,
              this.baseUrl(),
              this.o.timeZone,
              this.o.library,
            )
          : row.kind === 'waitlist-joined'
            ? await loadJoinMail(
                this.o.pool,
                row.owner_id,
                this.baseUrl(),
                this.o.waitlistReferences,
                this.o.library,
              )
            : row.kind === 'waitlist-closed'
              ? await loadWaitlistClosedMail(
                  this.o.pool,
                  row.owner_id,
                  { de: row.reason ?? '', en: row.reason_en },
                  this.o.library,
                )
              : row.kind === 'my-bookings-link'
                ? await loadMyBookingsMail(
                    this.o.pool,
                    row.owner_id,
                    this.baseUrl(),
                    this.o.myBookingsLinks,
                    this.o.timeZone,
                    this.o.clock.now(),
                    this.o.library,
                  )
                : await loadBookingMail(this.o, row, this.baseUrl());
    } catch (err) {
      await releaseMailLease(this.o.pool, row.id, lease).catch(() => undefined);
      throw err;
    }
    if (!input) {
      await skipMail(this.o.pool, row.id, lease);
      return 'skipped';
    }
    try {
      await this.deliver(row, input);
    } catch (err) {
      const delayS = Math.min(2 ** row.attempts, 300);
      const error = redactedSendError(err, [input.to, ...input.names]);
      const kept = await deferMail(
        this.o.pool,
        row.id,
        lease,
        new Date(this.o.clock.now().getTime() + delayS * 1000),
        error,
      );
      this.o.logger.warn(
        {
          outboxId: row.id,
          attempts: row.attempts + 1,
          error: sendErrorCode(err),
          ...(kept ? {} : { leaseLost: true }),
        },
        'mail not sent; will retry',
      );
      return 'failed';
    }
    if (!(await markMailSent(this.o.pool, row.id, lease, this.o.clock.now())))
      this.o.logger.warn(
        { outboxId: row.id },
        'mail sent after its lease ran out; another sender may send it again',
      );
    else this.o.logger.info({ outboxId: row.id, kind: row.kind }, 'mail sent');
    return 'sent';
  }

  private async deliver(row: OutboxRow, { composed, to, images = [] }: Loaded): Promise<void> {
    // A release takes the appointment out of the calendar as a cancellation does.
    const cancelled =
      row.kind === 'cancellation' || row.kind === 'release' || row.kind === 'unconfirmed';
    const info = (await this.transport.sendMail({
      from: this.o.from,
      to,
      subject: composed.subject,
      text: composed.text,
      html: composed.html,
      messageId: `<${row.id.replace(/[^A-Za-z0-9.-]/g, '.')}@reading-rooms>`,
      attachments: [
        ...(composed.ics
          ? [
              {
                filename: cancelled ? 'cancellation.ics' : 'reservation.ics',
                content: composed.ics,
                contentType: `text/calendar; charset=utf-8; method=${cancelled ? 'CANCEL' : 'PUBLISH'}`,
              },
            ]
          : []),
        ...images,
      ],
    })) as { message?: Buffer };
    if (!this.o.smtpUrl && info.message) {
      // Named by owner, so the erasure finds them (see removeErasedMailFiles).
      const file = path.join(this.o.mailDir, mailFileName(row.owner_id, row.id));
      await mkdir(this.o.mailDir, { recursive: true });
      await writeFile(file, info.message);
      // An erasure that committed while this mail was being written may have swept the folder
      // before the file was there: then the file goes now (an erasure after this check removes
      // it itself, after its commit).
      const kept = await this.o.pool.query(
        `SELECT 1 FROM personal_data WHERE owner_id = $1
         UNION ALL SELECT 1 FROM waitlist_entries WHERE entry_id::text = $1
         UNION ALL SELECT 1 FROM my_bookings_requests WHERE id::text = $1`,
        [row.owner_id],
      );
      if (!kept.rowCount) await unlink(file).catch(() => undefined);
    }
  }

  /** PUBLIC_BASE_URL with its closing slash, for the mails' links. */
  private baseUrl(): string {
    const base = this.o.publicBaseUrl;
    return base.endsWith('/') ? base : `${base}/`;
  }
}
