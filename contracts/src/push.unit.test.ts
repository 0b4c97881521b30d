import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  base64UrlBytes,
  PUSH_AUTH_BYTES,
  PUSH_ENDPOINT_MAX,
  PUSH_P256DH_BYTES,
  pushSubscriptionInput,
} from './push.ts';

const b64u = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const bytesOf = (n: number) => fc.uint8Array({ minLength: n, maxLength: n });
const endpoint = fc
  .tuple(fc.domain(), fc.webPath())
  .map(([host, path]) => `https://${host}/push${path}`)
  .filter((url) => url.length <= PUSH_ENDPOINT_MAX);
const valid = fc.record({
  endpoint,
  keys: fc.record({
    p256dh: bytesOf(PUSH_P256DH_BYTES).map(b64u),
    auth: bytesOf(PUSH_AUTH_BYTES).map(b64u),
  }),
});
const ok = (value: unknown) => z.safeParse(pushSubscriptionInput, value).success;

describe('a push subscription', () => {
  it('is taken with an https endpoint and keys of 65 and 16 bytes, base64url with or without padding', () => {
    fc.assert(
      fc.property(valid, fc.boolean(), (sub, padded) => {
        const pad = (s: string) => (padded ? s + '='.repeat((4 - (s.length % 4)) % 4) : s);
        expect(ok(sub)).toBe(true);
        expect(
          ok({ ...sub, keys: { p256dh: pad(sub.keys.p256dh), auth: pad(sub.keys.auth) } }),
        ).toBe(true);
        expect(ok({ ...sub, expirationTime: null })).toBe(true);
      }),
    );
  });

  it('is refused with keys of any other size', () => {
    fc.assert(
      fc.property(
        valid,
        fc.integer({ min: 0, max: 120 }),
        fc.constantFrom<'p256dh' | 'auth'>('p256dh', 'auth'),
        (sub, n, which) => {
          const size = which === 'p256dh' ? PUSH_P256DH_BYTES : PUSH_AUTH_BYTES;
          fc.pre(n !== size);
          const keys = { ...sub.keys, [which]: b64u(new Uint8Array(n)) };
          expect(ok({ ...sub, keys })).toBe(false);
        },
      ),
    );
  });

  it('is refused with keys that are no base64url (standard base64, spaces, other characters)', () => {
    fc.assert(
      fc.property(valid, fc.constantFrom('+', '/', ' ', '.', '!', '=A'), (sub, bad) => {
        const p256dh = sub.keys.p256dh.slice(0, 40) + bad + sub.keys.p256dh.slice(40 + bad.length);
        expect(ok({ ...sub, keys: { ...sub.keys, p256dh } })).toBe(false);
      }),
    );
  });

  it('is refused without an http(s) URL as endpoint, or with one too long', () => {
    fc.assert(
      fc.property(
        valid,
        fc.oneof(
          fc.string({ maxLength: 40 }).filter((s) => !/^https?:\/\/[^/]/i.test(s)),
          fc.webUrl().map((u) => u.replace(/^https?:/, 'ftp:')),
          fc.constant(`https://push.example/${'a'.repeat(PUSH_ENDPOINT_MAX)}`),
          fc.constant('https://user:secret@push.example/x'),
          fc.constant('https://push.example/x#fragment'),
        ),
        (sub, bad) => {
          expect(ok({ ...sub, endpoint: bad })).toBe(false);
        },
      ),
    );
  });

  it('is refused without its keys or with a value of another type', () => {
    fc.assert(
      fc.property(
        valid,
        fc.oneof(fc.integer(), fc.constant(null), fc.array(fc.string())),
        (sub, v) => {
          expect(ok({ endpoint: sub.endpoint })).toBe(false);
          expect(ok({ ...sub, keys: { p256dh: v, auth: sub.keys.auth } })).toBe(false);
          expect(ok({ ...sub, endpoint: v })).toBe(false);
        },
      ),
    );
  });

  it('decodes base64url lengths as Buffer does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        expect(base64UrlBytes(b64u(bytes))).toBe(bytes.length);
      }),
    );
  });
});
