import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where the server may send requests of its own (webhook deliveries): guards against a URL that
 * makes the server reach into its own network (SSRF). A URL is checked when staff enter it and
 * again at every delivery, whose connection goes to exactly the address checked then, so a DNS
 * answer that changes in between (rebinding) cannot slip an internal address past the check.
 */

/**
 * Addresses no outbound request may reach unless its host is allowed by name. Two lists: a
 * BlockList matches an IPv4 address against its IPv4-mapped IPv6 rules too, and the mapped range
 * is refused as a whole.
 */
const forbidden4 = new BlockList();
const forbidden6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", the unspecified 0.0.0.0
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, the cloud metadata service 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  forbidden4.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128],
  ['::', 96], // IPv4-compatible (deprecated): ::127.0.0.1
  ['::ffff:0:0', 96], // IPv4-mapped: ::ffff:127.0.0.1
  ['64:ff9b::', 96], // NAT64: any IPv4 address
  ['2002::', 16], // 6to4: any IPv4 address
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const)
  forbidden6.addSubnet(net, prefix, 'ipv6');

/** Whether an IP address is loopback, private, link-local, unspecified, mapped or otherwise internal. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return family === 4 ? forbidden4.check(address, 'ipv4') : forbidden6.check(address, 'ipv6');
}

export interface OutboundPolicy {
  /** `http://` besides `https://` (WEBHOOK_ALLOW_HTTP). */
  allowHttp: boolean;
  /** Hosts (names or addresses, as written in the URL) whose addresses are not checked. */
  allowedHosts: readonly string[];
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Answers every address of a host name (the system resolver, as a connection would use it). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/** Why a URL is refused: its scheme, credentials in it, its host's form, its addresses, no address. */
export type OutboundRefusal = 'scheme' | 'credentials' | 'host' | 'address' | 'unresolvable';

export type OutboundCheck =
  | { ok: true; url: URL; host: string; addresses: ResolvedAddress[] }
  | { ok: false; reason: OutboundRefusal; detail: string };

/** The host as typed in the URL (no user info, no port), lower case. */
function typedHost(raw: string): string | null {
  const authority = /^[a-z][a-z0-9+.-]*:[/\\]{2}([^/\\?#]*)/i.exec(raw.trim())?.[1];
  if (authority === undefined) return null;
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1).toLowerCase();
  const colon = host.lastIndexOf(':');
  return (colon >= 0 ? host.slice(0, colon) : host).toLowerCase();
}

const bare = (host: string) => (host.startsWith('[') ? host.slice(1, -1) : host);

/** The address in the form the URL parser writes it (`::1` for `0:0::1`), or the name as it is. */
function canonicalHost(host: string): string {
  const h = bare(host.trim().toLowerCase());
  if (isIP(h) !== 6) return h;
  try {
    return bare(new URL(`http://[${h}]/`).hostname);
  } catch {
    return h;
  }
}

/**
 * Checks a URL for an outbound request and answers the addresses to connect to: the scheme
 * (https, http only when allowed), no credentials, a host written as itself (the shorthand
 * forms of IPv4 addresses such as `127.1`, `0x7f.1` or `2130706433`, which the URL parser turns
 * into `127.0.0.1`, are refused as such), and every address the host resolves to outside the
 * internal ranges (`isForbiddenAddress`), unless the host is listed in `allowedHosts`. `localhost`
 * and its subdomains are refused without asking the resolver.
 */
export async function checkOutboundUrl(
  raw: string,
  policy: OutboundPolicy,
  resolve: Resolver = systemResolver,
): Promise<OutboundCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'host', detail: 'not a URL' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp))
    return { ok: false, reason: 'scheme', detail: url.protocol };
  if (url.username || url.password)
    return { ok: false, reason: 'credentials', detail: 'user info in the URL' };
  const host = bare(url.hostname);
  const typed = typedHost(raw);
  if (isIP(host) === 4 && typed !== host)
    return { ok: false, reason: 'host', detail: `${typed ?? '?'} is not written as ${host}` };
  const allowed = policy.allowedHosts.some((h) => canonicalHost(h) === host);
  if (!allowed && (host === 'localhost' || host.endsWith('.localhost')))
    return { ok: false, reason: 'address', detail: `${host} is this machine` };
  let addresses: ResolvedAddress[];
  const family = isIP(host);
  if (family !== 0) addresses = [{ address: host, family: family === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await resolve(host);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      return { ok: false, reason: 'unresolvable', detail: typeof code === 'string' ? code : host };
    }
    if (addresses.length === 0) return { ok: false, reason: 'unresolvable', detail: host };
  }
  if (!allowed) {
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    if (bad) return { ok: false, reason: 'address', detail: `${host} is ${bad.address}` };
  }
  return { ok: true, url, host, addresses };
}
