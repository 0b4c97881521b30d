import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { Client, InvalidCredentialsError, type Entry } from 'ldapts';
import type { Config } from '@rr/platform';

/**
 * A value as RFC 4515 writes it inside a filter: the characters that end or widen a filter
 * (`*`, `(`, `)`, `\`, NUL) as `\XX`, so a user name like `*)(uid=*` matches only itself.
 */
export function escapeFilterValue(value: string): string {
  return value.replace(/[*()\\\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** The search filter of a user name: every `{{username}}` of the template, escaped. */
export const userFilter = (template: string, username: string): string =>
  template.split('{{username}}').join(escapeFilterValue(username));

export interface LdapSettings {
  url: string;
  bindDn?: string;
  bindPassword?: string;
  searchBase: string;
  userFilter: string;
  groupsAttribute: string;
  /** PEM certificate authorities the directory's certificate must chain to; the system's if unset. */
  ca?: string;
  timeoutMs: number;
}

export function ldapSettingsFrom(config: Config): LdapSettings | null {
  if (!config.LDAP_URL || !config.LDAP_SEARCH_BASE) return null;
  return {
    url: config.LDAP_URL,
    bindDn: config.LDAP_BIND_DN,
    bindPassword: config.LDAP_BIND_PASSWORD,
    searchBase: config.LDAP_SEARCH_BASE,
    userFilter: config.LDAP_USER_FILTER,
    groupsAttribute: config.LDAP_GROUPS_ATTRIBUTE,
    ca: config.LDAP_TLS_CA_FILE ? readFileSync(config.LDAP_TLS_CA_FILE, 'utf8') : undefined,
    timeoutMs: config.LDAP_TIMEOUT_MS,
  };
}

export type LdapResult =
  { ok: true; groups: string[] } | { ok: false; reason: 'wrong-credentials' | 'unknown-user' };

/** The directory could not be asked (down, TLS refused, the service account refused). */
export class DirectoryUnavailable extends Error {
  override name = 'DirectoryUnavailable';
}

const values = (v: Entry[string] | undefined): string[] => {
  if (v === undefined) return [];
  const list = Array.isArray(v) ? v : [v];
  return list.map((x) => (Buffer.isBuffer(x) ? x.toString('utf8') : x));
};

/**
 * Sign-in against LDAP or Active Directory: the service account (or an anonymous bind) finds
 * exactly one entry by the user filter, then that entry's DN binds with the password given; the
 * groups attribute of the entry names the person's groups. Always over TLS: ldaps://, or
 * ldap:// upgraded with StartTLS before any bind, the certificate checked.
 */
export class LdapDirectory {
  constructor(private readonly settings: LdapSettings) {}

  private async connect(): Promise<Client> {
    const { url, ca, timeoutMs } = this.settings;
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    // The certificate is checked against the URL's host (`host`); SNI only carries a name.
    const tlsOptions: ConnectionOptions = {
      ca,
      host,
      ...(isIP(host) ? {} : { servername: host }),
      minVersion: 'TLSv1.2',
    };
    const startTls = url.startsWith('ldap://');
    // The TLS options go to one of the two ways only: given to the client as well, ldapts
    // breaks the StartTLS handshake.
    const client = new Client({
      url,
      timeout: timeoutMs,
      connectTimeout: timeoutMs,
      ...(startTls ? {} : { tlsOptions }),
    });
    if (startTls) await client.startTLS(tlsOptions);
    return client;
  }

  async authenticate(username: string, password: string): Promise<LdapResult> {
    // An empty password would be an unauthenticated bind, which many servers answer "success".
    if (password === '' || username === '') return { ok: false, reason: 'wrong-credentials' };
    let client: Client;
    try {
      client = await this.connect();
    } catch (err) {
      throw new DirectoryUnavailable(`cannot reach the directory: ${(err as Error).message}`);
    }
    try {
      let entries: Entry[];
      try {
        if (this.settings.bindDn)
          await client.bind(this.settings.bindDn, this.settings.bindPassword ?? '');
        const found = await client.search(this.settings.searchBase, {
          scope: 'sub',
          filter: userFilter(this.settings.userFilter, username),
          attributes: [this.settings.groupsAttribute],
          sizeLimit: 2,
        });
        entries = found.searchEntries;
      } catch (err) {
        throw new DirectoryUnavailable(`directory search failed: ${(err as Error).message}`);
      }
      // None, or more than one (a filter that is not unique): nobody to bind as.
      const entry = entries.length === 1 ? entries[0] : undefined;
      if (!entry) return { ok: false, reason: 'unknown-user' };
      try {
        await client.bind(entry.dn, password);
      } catch (err) {
        if (err instanceof InvalidCredentialsError)
          return { ok: false, reason: 'wrong-credentials' };
        throw new DirectoryUnavailable(`directory bind failed: ${(err as Error).message}`);
      }
      // Attribute names are case-insensitive; the server answers in its schema's spelling.
      const wanted = this.settings.groupsAttribute.toLowerCase();
      const key = Object.keys(entry).find((k) => k.toLowerCase() === wanted);
      return { ok: true, groups: key ? values(entry[key]) : [] };
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }
}
