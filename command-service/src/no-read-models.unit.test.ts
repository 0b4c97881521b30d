import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The command side never reads the read models (`rm_*`): projections fill them after the commit,
 * so a command finding its ticket, cart or room there misses what was just written. What commands
 * look things up by lives beside the log, written in the transaction of the events
 * (write-state.ts). This names every `rm_` table in the command side's sources (its tests apart).
 */
const SRC = import.meta.dirname;
const READ_MODEL = /\brm_[a-z_]+/g;

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => {
      const file = path.join(dir, e.name);
      if (e.isDirectory()) return sources(file);
      return Promise.resolve(e.name.endsWith('.ts') && !e.name.includes('.test.') ? [file] : []);
    }),
  );
  return nested.flat();
}

describe('the command side', () => {
  it('names no read model table (rm_*) in its sources', async () => {
    const files = await sources(SRC);
    expect(files.length).toBeGreaterThan(20);
    const found: string[] = [];
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      for (const m of text.matchAll(READ_MODEL)) found.push(`${path.relative(SRC, file)}: ${m[0]}`);
    }
    expect(found).toEqual([]);
  });
});
