import { readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Queryable } from './db.ts';

/**
 * Mails written as `.eml` files (no SMTP_URL) carry names and addresses, so the erasure must find
 * them per owner: a file is named `{ownerId}.{outboxId}.eml`, each part with every byte other
 * than a letter, a digit or `-` written as `_` and two hex digits (so the first dot ends the
 * owner id, and the owner id reads back exactly).
 */
function encode(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9-]/.test(c) ? c : `_${b.toString(16).padStart(2, '0')}`;
  }
  return out;
}

function decode(s: string): string | null {
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '_') {
      const hex = s.slice(i + 1, i + 3);
      if (!/^[0-9a-f]{2}$/.test(hex)) return null;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (/[A-Za-z0-9-]/.test(s[i]!)) bytes.push(s.charCodeAt(i));
    else return null;
  }
  return Buffer.from(bytes).toString('utf8');
}

export function mailFileName(ownerId: string, outboxId: string): string {
  return `${encode(ownerId)}.${encode(outboxId)}.eml`;
}

/** The owner of a mail file (null for a name not made by mailFileName). */
export function mailFileOwner(name: string): string | null {
  const m = /^([A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+\.eml$/.exec(name);
  return m ? decode(m[1]!) : null;
}

/**
 * How the files were named before (`{outboxId}.eml`, `:` as `_`): `confirmation_{eventId}` and
 * `cancellation_{tx}_{ownerId}`, read back into their outbox ids.
 */
function legacyOutboxId(name: string): string | null {
  const c = /^confirmation_([0-9a-f-]{36})\.eml$/.exec(name);
  if (c) return `confirmation:${c[1]!}`;
  const x = /^cancellation_([0-9]+)_([0-9a-f]+)\.eml$/.exec(name);
  return x ? `cancellation:${x[1]!}:${x[2]!}` : null;
}

/**
 * Removes the `.eml` files of every owner who has no personal data any more (erased), also those
 * an erasure committed but did not get to delete (a crash between the commit and the deletion):
 * one directory listing and one query a round. Idempotent; a missing directory is no error.
 * Answers how many files it removed.
 */
export async function removeErasedMailFiles(db: Queryable, mailDir: string): Promise<number> {
  let names: string[];
  try {
    names = (await readdir(mailDir)).filter((n) => n.endsWith('.eml'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  if (names.length === 0) return 0;
  const byOwner = new Map<string, string[]>();
  const add = (owner: string, name: string) =>
    byOwner.set(owner, [...(byOwner.get(owner) ?? []), name]);
  const legacy = new Map<string, string>();
  for (const name of names) {
    const owner = mailFileOwner(name);
    if (owner !== null) add(owner, name);
    else {
      const id = legacyOutboxId(name);
      if (id) legacy.set(id, name);
    }
  }
  // Older files are named by their outbox row alone: its owner tells.
  if (legacy.size) {
    const rows = await db.query<{ id: string; owner_id: string }>(
      'SELECT id, owner_id FROM mail_outbox WHERE id = ANY($1::text[])',
      [[...legacy.keys()]],
    );
    for (const r of rows.rows) add(r.owner_id, legacy.get(r.id)!);
  }
  if (byOwner.size === 0) return 0;
  const kept = await db.query<{ owner_id: string }>(
    // Waitlist offers' mails are named by their entry, kept while it is; a "my bookings" mail
    // by its request, kept while the request is (until its link has expired).
    `SELECT owner_id FROM personal_data WHERE owner_id = ANY($1::text[])
     UNION ALL SELECT entry_id::text FROM waitlist_entries WHERE entry_id::text = ANY($1::text[])
     UNION ALL SELECT id::text FROM my_bookings_requests WHERE id::text = ANY($1::text[])`,
    [[...byOwner.keys()]],
  );
  const live = new Set(kept.rows.map((r) => r.owner_id));
  let removed = 0;
  for (const [owner, files] of byOwner) {
    if (live.has(owner)) continue;
    for (const file of files) {
      try {
        await unlink(path.join(mailDir, file));
        removed += 1;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
  }
  return removed;
}
