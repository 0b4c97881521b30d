import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RECIPE_PATHS } from '../../scripts/scaffold.ts';

/**
 * The recipes "Add a command" and "Add a read model" of CONTRIBUTING.md and the scaffold that
 * follows them (scripts/scaffold.ts) say the same: every path a recipe names is a file of the
 * repository or, with its placeholders (`<name>`, `<area>`, ...), a path the scaffold writes for
 * that recipe; and every path the scaffold writes is named by its recipe. scaffold.int.test.ts
 * runs the scaffold and compiles and tests what it writes.
 */
const root = path.resolve(import.meta.dirname, '..', '..');
const contributing = readFileSync(path.join(root, 'CONTRIBUTING.md'), 'utf8');

/** The text of a `## ` section, up to the next one. */
function section(title: string): string {
  const start = contributing.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`CONTRIBUTING.md has no section ${title}`);
  const end = contributing.indexOf('\n## ', start + 1);
  return contributing.slice(start, end < 0 ? undefined : end);
}

/** The backticked repository paths of a text (under a top-level folder), anchors dropped. */
const pathsIn = (text: string): string[] =>
  [...text.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1]!.replace(/#.*$/, ''))
    .filter((p) => p.includes('/') && existsSync(path.join(root, p.split('/')[0]!)));

const recipes = [
  { title: 'Add a command', writes: RECIPE_PATHS.command },
  { title: 'Add a read model', writes: RECIPE_PATHS.readModel },
].map((r) => ({ ...r, text: section(r.title), named: pathsIn(section(r.title)) }));

describe('the recipes and the scaffold', () => {
  it.each(recipes)('$title names paths that exist or that its scaffold writes', (r) => {
    expect(r.named.length).toBeGreaterThan(10);
    const unknown = r.named.filter((p) =>
      p.includes('<') ? !r.writes.includes(p) : !existsSync(path.join(root, p)),
    );
    expect(unknown).toEqual([]);
  });

  it.each(recipes)('$title names every path its scaffold writes', (r) => {
    expect(r.writes.filter((p) => !r.named.includes(p))).toEqual([]);
  });

  it('show the scaffold command each recipe is', () => {
    expect(recipes[0]!.text).toContain('`npm run scaffold -- command <stream> <CommandName>`');
    expect(recipes[1]!.text).toContain('`npm run scaffold -- read-model <name> [--stream <kind>]`');
  });
});
