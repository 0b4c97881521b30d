import http2 from 'node:http2';
import type { ApplePassSigner } from './apple.ts';

/** The answer of one push: APNs' status (null: no answer) and its reason or the failure. */
export interface ApnsOutcome {
  status: number | null;
  error: string | null;
}

export interface ApnsOptions {
  /** WALLET_APNS_ORIGIN: Apple's production push service unless a test's stands in. */
  origin: string;
  signer: ApplePassSigner;
  /** WALLET_APNS_CA_FILE's contents: a CA trusted beside the system's (a test's own). */
  ca?: Buffer | undefined;
  timeoutMs: number;
}

/**
 * Apple's push service for wallet passes: HTTP/2, the client certificate the pass type's (the
 * pass certificate signs the passes and authenticates their pushes), topic the pass type id and
 * an empty JSON payload, which makes the device ask the web service what changed. One session
 * per round of the update job, closed after it.
 */
export class ApnsSession {
  private session: http2.ClientHttp2Session | null = null;

  constructor(private readonly o: ApnsOptions) {}

  private connect(): http2.ClientHttp2Session {
    if (this.session && !this.session.closed && !this.session.destroyed) return this.session;
    const { certificates } = this.o.signer;
    const session = http2.connect(this.o.origin, {
      cert: certificates.signerCert,
      key: certificates.signerKey,
      ...(certificates.signerKeyPassphrase ? { passphrase: certificates.signerKeyPassphrase } : {}),
      ...(this.o.ca ? { ca: this.o.ca } : {}),
    });
    // A failed connection fails its requests (below); the session's own error is not thrown.
    session.on('error', () => undefined);
    this.session = session;
    return session;
  }

  /** Pushes "this pass changed" to one device's push token. */
  push(pushToken: string, signal: AbortSignal): Promise<ApnsOutcome> {
    return new Promise((resolve) => {
      let settled = false;
      const done = (outcome: ApnsOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      let request: http2.ClientHttp2Stream | null = null;
      const onAbort = () => {
        request?.close(http2.constants.NGHTTP2_CANCEL);
        done({ status: null, error: 'stopped' });
      };
      const timer = setTimeout(() => {
        request?.close(http2.constants.NGHTTP2_CANCEL);
        done({ status: null, error: `no answer within ${this.o.timeoutMs} ms` });
      }, this.o.timeoutMs);
      signal.addEventListener('abort', onAbort);
      try {
        const body = Buffer.from('{}');
        request = this.connect().request({
          ':method': 'POST',
          ':path': `/3/device/${pushToken}`,
          'apns-topic': this.o.signer.passTypeId,
          'content-type': 'application/json',
          'content-length': String(body.length),
        });
        let status: number | null = null;
        const chunks: Buffer[] = [];
        request.on('response', (headers) => {
          status = Number(headers[':status']);
        });
        request.on('data', (chunk: Buffer) => {
          if (chunks.length < 16) chunks.push(chunk);
        });
        request.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8').slice(0, 500);
          done({ status, error: status === 200 ? null : text || `status ${status}` });
        });
        request.on('error', (err: Error) => done({ status, error: err.message }));
        request.end(body);
      } catch (err) {
        done({ status: null, error: String(err) });
      }
    });
  }

  close(): void {
    this.session?.close();
    this.session = null;
  }
}
