import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { freePort } from './ports.ts';

export interface SmtpSinkOptions {
  /** Recipients refused at RCPT TO with "550 <address> Recipient address rejected". */
  rejectRecipients?: string[];
  /** Called with each accepted message. */
  onMessage?: (mail: ParsedMail) => void;
}

/** A real SMTP server on loopback that keeps every message it accepts (parsed). */
export class SmtpSink {
  readonly messages: ParsedMail[] = [];
  private server: SMTPServer | null = null;

  constructor(
    readonly port: number,
    private readonly options: SmtpSinkOptions = {},
  ) {}

  async start(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        const rejected = (this.options.rejectRecipients ?? []).some(
          (r) => r.toLowerCase() === address.address.toLowerCase(),
        );
        if (!rejected) return callback();
        callback(
          Object.assign(new Error(`<${address.address}> Recipient address rejected`), {
            responseCode: 550,
          }),
        );
      },
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then((mail) => {
            this.messages.push(mail);
            this.options.onMessage?.(mail);
            callback();
          })
          .catch((err: Error) => callback(err));
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}?ignoreTLS=true`;
  }
}

/** What the sink in a child process reports of each message it accepted. */
export interface SinkMessage {
  messageId: string;
  to: string;
  subject: string;
}

/**
 * The SMTP sink in a child process of its own (tests/support/smtp-sink-main.ts), so a test can
 * freeze it (SIGSTOP: connections are accepted by the kernel, but never greeted) and thaw it
 * (SIGCONT). The child reports each accepted message as a JSON line.
 */
export interface SmtpSinkProcess {
  url: string;
  pid: number;
  messages: SinkMessage[];
  freeze(): void;
  thaw(): void;
  /** Kills it (frozen or not): its open connections are reset. */
  stop(): Promise<void>;
}

export async function spawnSmtpSink(): Promise<SmtpSinkProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'smtp-sink-main.ts'), String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const messages: SinkMessage[] = [];
  let out = '';
  let err = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      let nl;
      while ((nl = out.indexOf('\n')) >= 0) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        const msg = JSON.parse(line) as { ready?: true } & Partial<SinkMessage>;
        if (msg.ready) resolve();
        else messages.push(msg as SinkMessage);
      }
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => reject(new Error(`smtp sink exited (${code}): ${err}`)));
  });
  await ready;
  const pid = child.pid!;
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    pid,
    messages,
    freeze: () => process.kill(pid, 'SIGSTOP'),
    thaw: () => process.kill(pid, 'SIGCONT'),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL'); // also ends a frozen sink, without greeting anyone first
      await exited;
    },
  };
}
