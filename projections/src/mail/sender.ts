import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { CartTicket, EventStore, TransactionEvent } from '@rr/events';
import type { Clock, Logger, Pool } from '@rr/platform';
import { composeMail, type MailInput } from './compose.ts';

export interface MailSenderOptions {
  pool: Pool;
  store: EventStore;
  logger: Logger;
  clock: Clock;
  /** SMTP URL; without it mails are written as .eml files into mailDir. */
  smtpUrl: string | undefined;
  mailDir: string;
  from: string;
  /** Base of the visitor app for the confirmation link, e.g. https://library.example/reservation/. */
  publicBaseUrl: string;
  timeZone: string;
  intervalMs: number;
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

interface OutboxRow {
  id: string;
  kind: 'confirmation' | 'cancellation';
  owner_id: string;
  ticket_ids: string[];
  attempts: number;
}

/**
 * Sends the outbox: one row at a time under a row lock (SKIP LOCKED, so several senders never
 * send the same mail), marked sent in the same transaction. An SMTP failure leaves the row
 * pending with a growing delay; a booking never depends on the mail.
 */
export class MailSender {
  private readonly transport: Transporter;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: MailSenderOptions) {
    this.transport = o.smtpUrl
      ? nodemailer.createTransport(smtpOptions(o.smtpUrl))
      : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  }

  start(): void {
    this.timer = setInterval(() => {
      this.running = this.running
        .then(() => this.sendDue())
        .catch((err: unknown) => this.o.logger.warn({ err: String(err) }, 'mail round failed'));
    }, this.o.intervalMs);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
    this.transport.close();
  }

  /** Sends every due mail (a failed one is deferred with back-off, the others still go); answers how many were sent. */
  async sendDue(max = 100): Promise<number> {
    let sent = 0;
    for (let i = 0; i < max; i++) {
      const outcome = await this.sendOne();
      if (outcome === 'none') break;
      if (outcome === 'sent') sent += 1;
    }
    return sent;
  }

  private async sendOne(): Promise<'none' | 'sent' | 'failed' | 'skipped'> {
    const client = await this.o.pool.connect();
    try {
      await client.query('BEGIN');
      const r = await client.query<OutboxRow>(
        `SELECT id, kind, owner_id, ticket_ids, attempts FROM mail_outbox
          WHERE status = 'pending' AND next_attempt_at <= $1 ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
        [this.o.clock.now()],
      );
      const row = r.rows[0];
      if (!row) {
        await client.query('COMMIT');
        return 'none';
      }
      const input = await this.load(row);
      if (!input) {
        await client.query(`UPDATE mail_outbox SET status = 'skipped' WHERE id = $1`, [row.id]);
        await client.query('COMMIT');
        return 'skipped';
      }
      try {
        await this.deliver(row, input.mail, input.to);
      } catch (err) {
        const delayS = Math.min(2 ** row.attempts, 300);
        await client.query(
          `UPDATE mail_outbox SET attempts = attempts + 1, last_error = $2, next_attempt_at = $3 WHERE id = $1`,
          [
            row.id,
            String(err).slice(0, 500),
            new Date(this.o.clock.now().getTime() + delayS * 1000),
          ],
        );
        await client.query('COMMIT');
        this.o.logger.warn(
          { outboxId: row.id, attempts: row.attempts + 1 },
          'mail not sent; will retry',
        );
        return 'failed';
      }
      await client.query(
        `UPDATE mail_outbox SET status = 'sent', sent_at = $2, attempts = attempts + 1 WHERE id = $1`,
        [row.id, this.o.clock.now()],
      );
      await client.query('COMMIT');
      this.o.logger.info({ outboxId: row.id, kind: row.kind }, 'mail sent');
      return 'sent';
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  private async deliver(row: OutboxRow, mail: MailInput, to: string): Promise<void> {
    const composed = composeMail(mail);
    const info = (await this.transport.sendMail({
      from: this.o.from,
      to,
      subject: composed.subject,
      text: composed.text,
      html: composed.html,
      messageId: `<${row.id.replace(/[^A-Za-z0-9.-]/g, '.')}@reading-rooms>`,
      attachments: [
        {
          filename: mail.kind === 'confirmation' ? 'reservation.ics' : 'cancellation.ics',
          content: composed.ics,
          contentType: `text/calendar; charset=utf-8; method=${mail.kind === 'confirmation' ? 'PUBLISH' : 'CANCEL'}`,
        },
      ],
    })) as { message?: Buffer };
    if (!this.o.smtpUrl && info.message) {
      await mkdir(this.o.mailDir, { recursive: true });
      await writeFile(
        path.join(this.o.mailDir, `${row.id.replace(/[^A-Za-z0-9.-]/g, '_')}.eml`),
        info.message,
      );
    }
  }

  /** The mail's data from the write side (bookings, personal data, the cart stream): never stale. */
  private async load(row: OutboxRow): Promise<{ mail: MailInput; to: string } | null> {
    const b = await this.o.pool.query<{
      transaction_id: string;
      booking_number: string;
      language: 'de' | 'en';
      salutation: string;
      title: string | null;
      first_name: string;
      last_name: string;
      email: string;
    }>(
      `SELECT b.transaction_id, b.booking_number, b.language, p.salutation, p.title, p.first_name, p.last_name, p.email
         FROM bookings b JOIN personal_data p ON p.owner_id = b.owner_id WHERE b.owner_id = $1 AND p.email IS NOT NULL`,
      [row.owner_id],
    );
    const booking = b.rows[0];
    if (!booking) return null; // personal data erased meanwhile: nobody to write to
    const { events } = await this.o.store.readStream(`transaction-${booking.transaction_id}`);
    const tickets = new Map<string, CartTicket>();
    for (const e of events as unknown as TransactionEvent[]) {
      if (e.type === 'TicketAddedToTransaction') tickets.set(e.data.ticketId, e.data);
    }
    const chosen = row.ticket_ids.map((id) => tickets.get(id)).filter((t): t is CartTicket => !!t);
    const rooms = await this.o.pool.query<{ id: string; name: string }>(
      'SELECT id, name FROM rm_rooms WHERE id = ANY($1::uuid[])',
      [chosen.map((t) => t.roomId)],
    );
    const names = new Map(rooms.rows.map((x) => [x.id, x.name]));
    const base = this.o.publicBaseUrl.endsWith('/')
      ? this.o.publicBaseUrl
      : `${this.o.publicBaseUrl}/`;
    return {
      to: booking.email,
      mail: {
        kind: row.kind,
        language: booking.language,
        bookingNumber: booking.booking_number,
        ownerId: row.owner_id,
        salutation: booking.salutation,
        title: booking.title,
        firstName: booking.first_name,
        lastName: booking.last_name,
        tickets: chosen
          .sort((x, y) => (x.date + x.startTime < y.date + y.startTime ? -1 : 1))
          .map((t) => ({
            ticketId: t.ticketId,
            roomName: names.get(t.roomId) ?? '',
            date: t.date,
            startTime: t.startTime,
            endTime: t.endTime,
          })),
        confirmationUrl: `${base}reservation-confirmation/${row.owner_id}`,
        timeZone: this.o.timeZone,
        writtenAt: this.o.clock.now(),
      },
    };
  }
}
