import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The project's documents name files, folders and anchors of the repository: README, CONTRIBUTING
 * and everything under docs/. A name that no longer exists (a file moved, a heading renamed) is a
 * broken promise to the reader, so every one of them is checked here: the target of each Markdown
 * link (`[text](path#anchor)`), each repository path written in backticks, and each rule the
 * source code cites as `docs/product.md#<anchor>`. Paths under a `dist` folder are what the build
 * writes (`npm run build:server`) and are not checked; `<…>` marks a placeholder.
 */

const root = path.resolve(import.meta.dirname, '..', '..');

function markdownFiles(): string[] {
  const files = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'];
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(root, dir))) {
      const rel = path.join(dir, name);
      if (statSync(path.join(root, rel)).isDirectory()) walk(rel);
      else if (name.endsWith('.md')) files.push(rel);
    }
  };
  walk('docs');
  walk('tests/bench');
  return files.filter((f) => existsSync(path.join(root, f)));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[`*_[\]()]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings (a repeated heading gets `-1`, `-2`, …). */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(path.join(root, file), 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = anchorOf(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of readFileSync(path.join(root, file), 'utf8').matchAll(/<a (?:name|id)="([^"]+)"/g))
    anchors.add(m[1]!);
  return anchors;
}

/** Text outside fenced code blocks (examples there are commands, not references). */
function prose(file: string): string {
  let fenced = false;
  return readFileSync(path.join(root, file), 'utf8')
    .split('\n')
    .filter((line) => {
      if (line.startsWith('```')) {
        fenced = !fenced;
        return false;
      }
      return !fenced;
    })
    .join('\n');
}

const TOP_FOLDERS = readdirSync(root).filter(
  (name) =>
    !name.startsWith('.') &&
    name !== 'node_modules' &&
    statSync(path.join(root, name)).isDirectory(),
);

/**
 * A backticked repository path: it starts with a top-level folder of the repository (or is a
 * file at the root with an extension) and is no pattern (`*`, `<area>`, `{de,en}`, `…`).
 */
function backtickedPaths(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/`([^`\s]+)`/g)) {
    const value = m[1]!.replace(/[:,.;]+$/, '').replace(/#.*$/, '');
    if (/[*<>{}…$|]/.test(value)) continue;
    const first = value.split('/')[0]!;
    if (value.split('/').includes('dist')) continue;
    if (value.includes('/') && TOP_FOLDERS.includes(first)) found.push(value);
  }
  return found;
}

interface Reference {
  from: string;
  target: string;
  anchor?: string;
}

function references(): Reference[] {
  const refs: Reference[] = [];
  for (const file of markdownFiles()) {
    const text = prose(file);
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const link = m[1]!;
      if (/^[a-z]+:/.test(link)) continue; // http:, mailto:
      const [target, anchor] = link.split('#') as [string, string | undefined];
      const resolved = target === '' ? file : path.normalize(path.join(path.dirname(file), target));
      refs.push({ from: file, target: resolved, ...(anchor ? { anchor } : {}) });
    }
    for (const p of backtickedPaths(text)) refs.push({ from: file, target: path.normalize(p) });
    // A document and anchor in backticks (docs/product.md#<anchor>), as CONTRIBUTING cites rules.
    for (const m of text.matchAll(/`((?:docs\/)?[\w-]+\.md)#([^`\s<>]+)`/g)) {
      const target = m[1]!.includes('/') ? m[1]! : path.join(path.dirname(file), m[1]!);
      refs.push({ from: file, target: path.normalize(target), anchor: m[2]! });
    }
  }
  return [...refs, ...citationsInCode()];
}

/** The source files of the repository's packages and tests (not dependencies, not builds). */
function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(path.join(root, dir))) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
      const rel = path.join(dir, name);
      if (statSync(path.join(root, rel)).isDirectory()) walk(rel);
      else if (/\.(ts|tsx|mjs|js)$/.test(name)) files.push(rel);
    }
  };
  for (const folder of TOP_FOLDERS) walk(folder);
  return files;
}

/** Each `docs/<file>.md#anchor` a source file cites. */
function citationsInCode(): Reference[] {
  const refs: Reference[] = [];
  for (const file of sourceFiles()) {
    const text = readFileSync(path.join(root, file), 'utf8');
    for (const m of text.matchAll(/\b(docs\/[\w-]+\.md)#([A-Za-z0-9_-]+)/g))
      refs.push({ from: file, target: m[1]!, anchor: m[2]! });
  }
  return refs;
}

describe('the documents name what exists', () => {
  it('every file and folder they name is in the repository', () => {
    const missing = references()
      .filter((r) => !existsSync(path.join(root, r.target)))
      .map((r) => `${r.from}: ${r.target}`);
    expect([...new Set(missing)]).toEqual([]);
  });

  it('every #anchor they link to is a heading of its document', () => {
    const cache = new Map<string, Set<string>>();
    const broken = references()
      .filter((r) => r.anchor && r.target.endsWith('.md') && existsSync(path.join(root, r.target)))
      .filter((r) => {
        if (!cache.has(r.target)) cache.set(r.target, anchorsOf(r.target));
        return !cache.get(r.target)!.has(r.anchor!);
      })
      .map((r) => `${r.from}: ${r.target}#${r.anchor!}`);
    expect([...new Set(broken)]).toEqual([]);
  });

  it('takes anchors as GitHub makes them', () => {
    expect(anchorOf('Upgrades without downtime')).toBe('upgrades-without-downtime');
    expect(anchorOf('High availability: PostgreSQL replication')).toBe(
      'high-availability-postgresql-replication',
    );
    expect(anchorOf('`npm test` and `.ci/run`')).toBe('npm-test-and-cirun');
    expect(anchorOf('Öffnungszeiten & Schließtage')).toBe('öffnungszeiten--schließtage');
  });
});
