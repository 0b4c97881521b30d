import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every feature injects its endpoints into the one base API, which keeps the first endpoint of a
 * name and ignores a later one: two features naming an endpoint alike would have one of them call
 * the other's route. So each name is used once across the features.
 */
const FEATURES = path.resolve(import.meta.dirname, '../features');

function apiFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return apiFiles(full);
    return /\.ts$/.test(e.name) && !e.name.includes('.test.') ? [full] : [];
  });
}

describe('the endpoints of the base API', () => {
  it('each have a name no other feature uses', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const file of apiFiles(FEATURES)) {
      for (const m of readFileSync(file, 'utf8').matchAll(
        /^\s+(\w+): build\.(?:query|mutation)/gm,
      )) {
        const name = m[1]!;
        const where = path.relative(FEATURES, file);
        if (seen.has(name)) twice.push(`${name}: ${seen.get(name)} and ${where}`);
        else seen.set(name, where);
      }
    }
    expect(seen.size).toBeGreaterThan(20);
    expect(twice).toEqual([]);
  });
});
