import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The domain's modules are its folders (rooms, time slots, reservations, waitlist, ...), each
 * importing the shared rules at the root and the modules below it, never one that imports it back:
 * the folders form no cycle, and the shared files at the root (calendar, limits, seats, the rule
 * codes, ...) import no module, so every module may build on them. The package's index is the one
 * root file that names the modules.
 */
const SRC = import.meta.dirname;

interface Source {
  /** The module's folder, or '.' for a shared file at the root. */
  module: string;
  file: string;
  imports: string[];
}

function sources(dir: string): Source[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e): Source[] => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'testing' ? [] : sources(full);
    if (!e.name.endsWith('.ts') || e.name.includes('.test.')) return [];
    const rel = path.relative(SRC, full).split(path.sep);
    const imports = [...readFileSync(full, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)].map(
      (m) => {
        const target = path.relative(SRC, path.resolve(dir, m[1]!)).split(path.sep);
        return target.length > 1 ? target[0]! : '.';
      },
    );
    return [{ module: rel.length > 1 ? rel[0]! : '.', file: rel.join('/'), imports }];
  });
}

const all = sources(SRC);

describe('the domain modules', () => {
  it('leave the shared files at the root free of any module (but the index)', () => {
    const upward = all
      .filter((s) => s.module === '.' && s.file !== 'index.ts')
      .flatMap((s) => s.imports.filter((m) => m !== '.').map((m) => `${s.file} imports ${m}`));
    expect(upward).toEqual([]);
  });

  it('import each other without a cycle', () => {
    const edges = new Map<string, Set<string>>();
    for (const s of all)
      for (const m of s.imports)
        if (s.module !== '.' && m !== '.' && m !== s.module)
          edges.set(s.module, (edges.get(s.module) ?? new Set()).add(m));
    const cycles: string[] = [];
    const walk = (at: string, trail: string[]) => {
      for (const next of edges.get(at) ?? []) {
        if (trail.includes(next)) cycles.push([...trail, next].join(' > '));
        else walk(next, [...trail, next]);
      }
    };
    for (const start of edges.keys()) walk(start, [start]);
    expect(cycles).toEqual([]);
    // The walk saw the modules at all.
    expect(edges.size).toBeGreaterThan(3);
  });
});
