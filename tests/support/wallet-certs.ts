import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';

/**
 * Throwaway certificates like Apple's for signing wallet passes: a root (in place of Apple's
 * root CA), a WWDR intermediate it issues, and a pass type certificate the WWDR issues, its key
 * under a passphrase; and a Google service account's RSA key. All in a temporary directory.
 */
export interface WalletCertificates {
  dir: string;
  rootCert: string;
  wwdrCert: string;
  signerCert: string;
  signerKey: string;
  passphrase: string;
  googleKey: string;
  /** The Google key's public half (PEM), to verify the save links' JWTs. */
  googlePublicKey: string;
  /** The settings of the server that signs with them. */
  env: Record<string, string>;
  remove(): void;
}

const openssl = (dir: string, args: string[]) =>
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });

export function makeWalletCertificates(passTypeId: string): WalletCertificates {
  const dir = mkdtempSync(path.join(tmpdir(), 'rr-wallet-'));
  const file = (name: string) => path.join(dir, name);
  const passphrase = 'pass-phrase-of-the-key';
  writeFileSync(
    file('ca.ext'),
    'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n',
  );
  writeFileSync(file('signer.ext'), 'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\n');
  openssl(
    dir,
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'root.key']
      .concat(['-out', 'root.pem', '-days', '3650', '-subj', '/CN=Test Root CA'])
      .concat(['-addext', 'basicConstraints=critical,CA:TRUE']),
  );
  openssl(
    dir,
    ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'wwdr.key', '-out', 'wwdr.csr'].concat([
      '-subj',
      '/CN=Test WWDR',
    ]),
  );
  openssl(
    dir,
    ['x509', '-req', '-in', 'wwdr.csr', '-CA', 'root.pem', '-CAkey', 'root.key'].concat([
      '-CAcreateserial',
      '-out',
      'wwdr.pem',
      '-days',
      '3650',
      '-extfile',
      'ca.ext',
    ]),
  );
  openssl(
    dir,
    ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048'].concat([
      '-aes-256-cbc',
      '-pass',
      `pass:${passphrase}`,
      '-out',
      'signer.key',
    ]),
  );
  openssl(
    dir,
    ['req', '-new', '-key', 'signer.key', '-passin', `pass:${passphrase}`].concat([
      '-out',
      'signer.csr',
      '-subj',
      `/UID=${passTypeId}/CN=Pass Type ID: ${passTypeId}`,
    ]),
  );
  openssl(
    dir,
    ['x509', '-req', '-in', 'signer.csr', '-CA', 'wwdr.pem', '-CAkey', 'wwdr.key'].concat([
      '-CAcreateserial',
      '-out',
      'signer.pem',
      '-days',
      '3650',
      '-extfile',
      'signer.ext',
    ]),
  );
  const google = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(
    file('google.pem'),
    google.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  );
  return {
    dir,
    rootCert: file('root.pem'),
    wwdrCert: file('wwdr.pem'),
    signerCert: file('signer.pem'),
    signerKey: file('signer.key'),
    passphrase,
    googleKey: file('google.pem'),
    googlePublicKey: google.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    env: {
      WALLET_PASS_TYPE_ID: passTypeId,
      WALLET_TEAM_ID: 'TEAM123456',
      WALLET_SIGNER_CERT_FILE: file('signer.pem'),
      WALLET_SIGNER_KEY_FILE: file('signer.key'),
      WALLET_SIGNER_KEY_PASSPHRASE: passphrase,
      WALLET_WWDR_CERT_FILE: file('wwdr.pem'),
      GOOGLE_WALLET_ISSUER_ID: '3388000000012345678',
      GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL: 'wallet@reading-rooms.iam.gserviceaccount.com',
      GOOGLE_WALLET_PRIVATE_KEY_FILE: file('google.pem'),
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The files of a zip archive (stored or deflated), read from its central directory. */
export function unzip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip archive');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('bad central directory');
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    files.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}
