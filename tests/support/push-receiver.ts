import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

/**
 * A browser's push service in a test: an HTTP receiver on 127.0.0.1 that keeps each request's
 * headers and raw body, and the browser's side of a subscription (a P-256 key pair and an auth
 * secret) that decrypts what came (RFC 8291, with `http_ece`, web-push's own dependency).
 */

interface Ece {
  decrypt(
    body: Buffer,
    params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: string },
  ): Buffer;
}
const ece = createRequire(import.meta.url)('http_ece') as Ece;

export interface PushRequest {
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface PushService {
  /** The receiver's origin, `http://127.0.0.1:<port>`. */
  origin: string;
  received: PushRequest[];
  /** The status of the answer to requests to a path (201 unless told). */
  answers: Map<string, number>;
  close(): Promise<void>;
}

export async function startPushService(): Promise<PushService> {
  const service: PushService = {
    origin: '',
    received: [],
    answers: new Map(),
    close: () => Promise.resolve(),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      const path = req.url ?? '/';
      service.received.push({ path, headers, body: Buffer.concat(chunks) });
      res.statusCode = service.answers.get(path) ?? 201;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  service.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  service.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return service;
}

/** A browser's subscription to a push service's path: its keys, and how it reads a notification. */
export function browserSubscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16).toString('base64url');
  return {
    json: {
      endpoint,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth },
    },
    /** The notification's payload, decrypted as the browser does. */
    decrypt: (body: Buffer): unknown =>
      JSON.parse(
        ece.decrypt(body, { version: 'aes128gcm', privateKey: ecdh, authSecret: auth }).toString(),
      ),
  };
}

/**
 * Checks a VAPID Authorization header (`vapid t=<JWT>, k=<public key>`, RFC 8292) against the
 * server's public key: answers the token's claims when its ES256 signature verifies, else null.
 */
export function vapidClaims(
  authorization: string,
  publicKey: string,
): Record<string, unknown> | null {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization);
  if (!m || m[2] !== publicKey) return null;
  const [header, claims, signature] = m[1]!.split('.');
  if (!header || !claims || !signature) return null;
  const point = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) return null;
  const alg = (JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: string }).alg;
  if (alg !== 'ES256') return null;
  return JSON.parse(Buffer.from(claims, 'base64url').toString()) as Record<string, unknown>;
}
