import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './ports.ts';
import { budget } from './time-budget.ts';
import { waitFor } from './wait-for.ts';

const run = promisify(execFile);

export const LDAP_SUFFIX = 'dc=campus,dc=example';
const ROOT_DN = `cn=admin,${LDAP_SUFFIX}`;
const ROOT_PASSWORD = 'root secret';
/** The service account the product searches with (LDAP_BIND_DN / LDAP_BIND_PASSWORD). */
export const LDAP_SERVICE = {
  dn: `cn=reservations,ou=services,${LDAP_SUFFIX}`,
  password: 'svc pw',
};
export const groupDn = (name: string) => `cn=${name},ou=groups,${LDAP_SUFFIX}`;

export interface LdapPerson {
  uid: string;
  password: string;
  /** Group names (cn) under ou=groups; the memberof overlay gives the person memberOf. */
  groups: string[];
}

export interface LdapServer {
  /** ldap://127.0.0.1:port (StartTLS) */
  url: string;
  /** ldaps://127.0.0.1:port */
  ldapsUrl: string;
  /** The PEM file of the test's certificate authority (LDAP_TLS_CA_FILE). */
  caFile: string;
  /** The settings of the product for this directory (STAFF_ROLE_MAP aside). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

const SCHEMAS = ['core', 'cosine', 'inetorgperson', 'nis'];

/**
 * Debian's slapd as a plain process on loopback, with a throwaway slapd.conf under the system
 * temp dir (mdb backend, memberof overlay), TLS from a certificate authority made for the test
 * (openssl), seeded with ldapadd: people under ou=people, groupOfNames under ou=groups.
 */
export async function startLdapServer(people: LdapPerson[]): Promise<LdapServer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'rr-slapd-'));
  await mkdir(path.join(dir, 'db'));
  const f = (name: string) => path.join(dir, name);
  await run('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=rr test CA',
    '-keyout', f('ca.key'), '-out', f('ca.pem'),
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign',
  ]); // prettier-ignore
  await run('openssl', [
    'req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost',
    '-keyout', f('server.key'), '-out', f('server.csr'),
  ]); // prettier-ignore
  await writeFile(f('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  await run('openssl', [
    'x509', '-req', '-in', f('server.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'),
    '-CAcreateserial', '-days', '2', '-extfile', f('server.ext'), '-out', f('server.pem'),
  ]); // prettier-ignore
  await writeFile(
    f('slapd.conf'),
    [
      ...SCHEMAS.map((s) => `include /etc/ldap/schema/${s}.schema`),
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      'moduleload memberof',
      `pidfile ${f('slapd.pid')}`,
      `TLSCACertificateFile ${f('ca.pem')}`,
      `TLSCertificateFile ${f('server.pem')}`,
      `TLSCertificateKeyFile ${f('server.key')}`,
      'database mdb',
      `suffix "${LDAP_SUFFIX}"`,
      `rootdn "${ROOT_DN}"`,
      `rootpw "${ROOT_PASSWORD}"`,
      `directory ${f('db')}`,
      'maxsize 10485760',
      'overlay memberof',
      'access to attrs=userPassword by anonymous auth by * none',
      'access to * by users read by * none',
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const tlsPort = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const ldapsUrl = `ldaps://127.0.0.1:${tlsPort}`;
  let out = '';
  const child: ChildProcess = spawn(
    '/usr/sbin/slapd',
    ['-f', f('slapd.conf'), '-h', `${url}/ ${ldapsUrl}/`, '-d', '0'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(
      `slapd on ${url}`,
      () => {
        if (child.exitCode !== null) throw new Error(`slapd exited: ${out}`);
        return accepts(port);
      },
      budget(10_000),
    );
    await writeFile(f('seed.ldif'), seedLdif(people));
    await run('ldapadd', [
      '-x',
      '-H',
      url,
      '-D',
      ROOT_DN,
      '-w',
      ROOT_PASSWORD,
      '-f',
      f('seed.ldif'),
    ]);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url,
    ldapsUrl,
    caFile: f('ca.pem'),
    env: {
      LDAP_URL: url,
      LDAP_BIND_DN: LDAP_SERVICE.dn,
      LDAP_BIND_PASSWORD: LDAP_SERVICE.password,
      LDAP_SEARCH_BASE: `ou=people,${LDAP_SUFFIX}`,
      LDAP_TLS_CA_FILE: f('ca.pem'),
    },
    stop,
  };
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

function seedLdif(people: LdapPerson[]): string {
  const entries = [
    [
      `dn: ${LDAP_SUFFIX}`,
      'objectClass: dcObject',
      'objectClass: organization',
      'o: Campus',
      'dc: campus',
    ],
    [`dn: ou=people,${LDAP_SUFFIX}`, 'objectClass: organizationalUnit', 'ou: people'],
    [`dn: ou=groups,${LDAP_SUFFIX}`, 'objectClass: organizationalUnit', 'ou: groups'],
    [`dn: ou=services,${LDAP_SUFFIX}`, 'objectClass: organizationalUnit', 'ou: services'],
    [
      `dn: ${LDAP_SERVICE.dn}`,
      'objectClass: organizationalRole',
      'objectClass: simpleSecurityObject',
      'cn: reservations',
      `userPassword: ${LDAP_SERVICE.password}`,
    ],
    ...people.map((p) => [
      `dn: uid=${p.uid},ou=people,${LDAP_SUFFIX}`,
      'objectClass: inetOrgPerson',
      `uid: ${p.uid}`,
      `cn: ${p.uid}`,
      `sn: ${p.uid}`,
      `userPassword: ${p.password}`,
    ]),
    ...[...new Set(people.flatMap((p) => p.groups))].map((g) => [
      `dn: ${groupDn(g)}`,
      'objectClass: groupOfNames',
      `cn: ${g}`,
      ...people
        .filter((p) => p.groups.includes(g))
        .map((p) => `member: uid=${p.uid},ou=people,${LDAP_SUFFIX}`),
    ]),
  ];
  return entries.map((e) => e.join('\n')).join('\n\n') + '\n';
}
