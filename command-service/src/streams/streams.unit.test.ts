import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as blacklist from './blacklist.ts';
import * as holidays from './holidays.ts';
import * as noShows from './no-shows.ts';
import * as rekeying from './rekeying.ts';
import * as room from './room.ts';
import * as roomOrder from './room-order.ts';
import * as sites from './sites.ts';
import * as timeslot from './timeslot.ts';
import * as transaction from './transaction.ts';
import * as visitor from './visitor.ts';

/**
 * One module per stream of the log (`streams/`): the only code that builds a stream's append,
 * and the list of command-side files whose decisions may append to it. This test reads the
 * command side's sources and fails when a file appends to a stream it is not listed for, or
 * builds an append outside the stream modules.
 */
const SRC = path.resolve(import.meta.dirname, '..');

/** Each stream module's append function and its writers. */
const modules = {
  appendToSlot: timeslot.writers,
  appendToCart: transaction.writers,
  appendToVisitor: visitor.writers,
  appendToRoom: room.writers,
  appendToRoomOrder: roomOrder.writers,
  appendToSites: sites.writers,
  appendToHolidays: holidays.writers,
  appendToBlacklist: blacklist.writers,
  appendToNoShows: noShows.writers,
  appendToRekeying: rekeying.writers,
} satisfies Record<string, readonly string[]>;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith('.ts') && !e.name.includes('.test.') ? [full] : [];
  });
}

const files = sources(SRC).map((full) => ({
  name: path.relative(SRC, full).split(path.sep).join('/'),
  text: readFileSync(full, 'utf8'),
}));

describe('the stream modules', () => {
  it('are the only code that builds an append', () => {
    const outside = files
      .filter((f) => !f.name.startsWith('streams/') && /\bstreamAppend(Of)?\s*\(/.test(f.text))
      .map((f) => f.name);
    expect(outside).toEqual([]);
  });

  it('take appends only from the files each lists as its writers', () => {
    const strays: string[] = [];
    for (const [append, writers] of Object.entries(modules))
      for (const f of files)
        if (
          !f.name.startsWith('streams/') &&
          new RegExp(`\\b${append}\\s*\\(`).test(f.text) &&
          !(writers as readonly string[]).includes(f.name)
        )
          strays.push(`${f.name} calls ${append}`);
    expect(strays).toEqual([]);
  });

  it('list only writers that exist and append', () => {
    const stale: string[] = [];
    for (const [append, writers] of Object.entries(modules))
      for (const w of writers) {
        const f = files.find((x) => x.name === w);
        if (!f || !new RegExp(`\\b${append}\\s*\\(`).test(f.text)) stale.push(`${w} (${append})`);
      }
    expect(stale).toEqual([]);
  });
});
