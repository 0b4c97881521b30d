// The outbound address check on its own: no connection is made and no resolver is asked (the
// resolver given answers from a table; a name outside it fails the test).
import { describe, expect, it } from 'vitest';
import {
  checkOutboundUrl,
  isForbiddenAddress,
  type OutboundPolicy,
  type Resolver,
} from './outbound-address.ts';

const names: Record<string, string[]> = {
  'hooks.example.org': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'rebind.example.org': ['93.184.215.14', '10.0.0.7'],
  'metadata.example.org': ['169.254.169.254'],
  'receiver.internal': ['192.168.1.20'],
};
const table: Resolver = (host) => {
  const found = names[host];
  if (!found) return Promise.reject(Object.assign(new Error(host), { code: 'ENOTFOUND' }));
  return Promise.resolve(
    found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
  );
};
const strict: OutboundPolicy = { allowHttp: false, allowedHosts: [] };
const check = (url: string, policy = strict) => checkOutboundUrl(url, policy, table);

describe('internal addresses', () => {
  it.each([
    '127.0.0.1',
    '127.0.0.2',
    '127.255.255.254',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.169.254',
    '169.254.0.1',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:8.8.8.8',
    '::127.0.0.1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'febf::1',
    'ff02::1',
    '64:ff9b::a00:1',
    '2002:7f00:1::',
    'not-an-address',
  ])('%s is refused', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '192.169.0.1', '2606:4700::1111'])(
    '%s is public',
    (address) => {
      expect(isForbiddenAddress(address)).toBe(false);
    },
  );
});

describe('URLs', () => {
  it('accept https to a public host and answer the addresses checked', async () => {
    const ok = await check('https://hooks.example.org/rr?x=1');
    expect(ok).toMatchObject({ ok: true, host: 'hooks.example.org' });
    expect(ok.ok && ok.addresses.map((a) => a.address)).toEqual(names['hooks.example.org']);
    expect(await check('https://93.184.215.14:8443/')).toMatchObject({ ok: true });
  });

  it('refuse http unless allowed, and credentials in the URL', async () => {
    expect(await check('http://hooks.example.org/')).toMatchObject({ ok: false, reason: 'scheme' });
    expect(await check('ftp://hooks.example.org/')).toMatchObject({ ok: false, reason: 'scheme' });
    expect(
      await check('http://hooks.example.org/', { allowHttp: true, allowedHosts: [] }),
    ).toMatchObject({ ok: true });
    expect(await check('https://u:p@hooks.example.org/')).toMatchObject({
      ok: false,
      reason: 'credentials',
    });
  });

  it.each([
    'https://127.0.0.1/',
    'https://127.0.0.2:9999/',
    'https://[::1]/',
    'https://[0:0:0:0:0:0:0:1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:10.0.0.1]/',
    'https://0.0.0.0/',
    'https://[::]/',
    'https://169.254.169.254/latest/meta-data/',
    'https://[fe80::1]/',
    'https://[fd00::1]/',
    'https://localhost/',
    'https://LOCALHOST:8080/',
    'https://api.localhost/',
    'https://metadata.example.org/',
    'https://receiver.internal/',
    'https://rebind.example.org/',
  ])('refuse %s by its address', async (url) => {
    expect(await check(url)).toMatchObject({ ok: false, reason: 'address' });
  });

  it.each([
    'https://127.1/',
    'https://0x7f.1/',
    'https://0x7f000001/',
    'https://2130706433/',
    'https://017700000001/',
    'https://127.0.1/',
    'https://%31%32%37.0.0.1/',
    'https://0/',
  ])('refuse the shorthand form %s', async (url) => {
    expect(await check(url)).toMatchObject({ ok: false, reason: 'host' });
  });

  it('refuse a name that does not resolve', async () => {
    expect(await check('https://nowhere.example.org/')).toMatchObject({
      ok: false,
      reason: 'unresolvable',
    });
  });

  it('let listed hosts through by the host written, not by an address it resolves to', async () => {
    const policy = { allowHttp: true, allowedHosts: ['127.0.0.1', 'receiver.internal', '::1'] };
    expect(await check('http://127.0.0.1:8080/hook', policy)).toMatchObject({ ok: true });
    expect(await check('https://receiver.internal/', policy)).toMatchObject({ ok: true });
    expect(await check('http://[::1]:8080/', policy)).toMatchObject({ ok: true });
    expect(await check('http://[0::1]:8080/', policy)).toMatchObject({ ok: true });
    for (const url of [
      'http://127.0.0.2/',
      'http://127.1/',
      'http://localhost/',
      'http://0.0.0.0/',
      'http://[::ffff:127.0.0.1]/',
    ])
      expect((await check(url, policy)).ok, url).toBe(false);
  });
});
