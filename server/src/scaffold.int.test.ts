import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  planCommand,
  planReadModel,
  RECIPE_PATHS,
  ScaffoldRefused,
  writePlan,
} from '../../scripts/scaffold.ts';

/**
 * The scaffold (scripts/scaffold.ts, `npm run scaffold`) is the recipes of CONTRIBUTING.md as a
 * program: run into a copy of the repository, what it writes compiles (`tsc --noEmit`) and its
 * generated tests pass, with the checks that hold the recipes' rules (every table has an owner,
 * every append comes from a stream's listed writer). It refuses a name that exists and leaves
 * the copy as it was. The repository itself is never written: the copy is a temporary folder,
 * removed afterwards, whose node_modules link to the repository's (its own packages to the copy).
 */
const root = path.resolve(import.meta.dirname, '..', '..');
/** Not copied: dependencies, builds, history, and the browser app (the server packages are enough). */
const LEFT_OUT = new Set(['node_modules', '.git', 'dist', '.tmp', 'frontend', 'data']);

let copy: string;

function copyRepository(): string {
  const to = mkdtempSync(path.join(os.tmpdir(), 'rr-scaffold-'));
  for (const name of readdirSync(root))
    if (!LEFT_OUT.has(name))
      cpSync(path.join(root, name), path.join(to, name), {
        recursive: true,
        filter: (src) => !LEFT_OUT.has(path.basename(src)),
      });
  mkdirSync(path.join(to, 'node_modules', '@rr'), { recursive: true });
  for (const name of readdirSync(path.join(root, 'node_modules'))) {
    // Caches (.vite, .vitest) stay the copy's own; the workspace packages are the copy's.
    if ((name.startsWith('.') && name !== '.bin') || name === '@rr') continue;
    symlinkSync(path.join(root, 'node_modules', name), path.join(to, 'node_modules', name));
  }
  for (const name of readdirSync(path.join(root, 'node_modules', '@rr')))
    if (existsSync(path.join(to, name)))
      symlinkSync(`../../${name}`, path.join(to, 'node_modules', '@rr', name));
  return to;
}

/** Runs a command in the copy, without the environment of the test run around it. */
function run(command: string, args: string[], env: Record<string, string> = {}) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^(VITEST|RR_TEST_|RR_SLOWNESS|FORCE_COLOR)/.test(k),
    ),
  );
  const r = spawnSync(command, args, {
    cwd: copy,
    encoding: 'utf8',
    env: { ...clean, NO_COLOR: '1', ...env },
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

const scaffold = (...args: string[]) => run('npm', ['run', '--silent', 'scaffold', '--', ...args]);

/** Every file of the copy but its dependencies, with a digest of its content. */
function tree(dir = copy): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const p = path.join(rel, e.name);
      if (e.name === 'node_modules') continue;
      if (e.isDirectory()) walk(p);
      else
        files.set(
          p,
          createHash('sha1')
            .update(readFileSync(path.join(dir, p)))
            .digest('hex'),
        );
    }
  };
  walk('');
  return files;
}

/** The files a run says it wrote or changed (`wrote  path`, `changed path`). */
const written = (output: string) =>
  [...output.matchAll(/^(?:wrote|changed)\s+(\S+)$/gm)].map((m) => m[1]!);

const pattern = (template: string) =>
  new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/<[^>]+>/g, '[^/]+')}$`);

describe('the scaffold, run into a copy of the repository', () => {
  const files = new Set<string>();
  const tests: string[] = [];

  beforeAll(() => {
    copy = copyRepository();
  });
  afterAll(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  it('writes a read model and commands on two streams, each file one of the recipes', async () => {
    // `npm run scaffold` itself once (a process costs seconds of CPU to load); then what it
    // runs, in this process.
    const r = scaffold('read-model', 'scaffold-check');
    expect(r.status, r.output).toBe(0);
    for (const f of written(r.output)) files.add(f);
    // Each planned on what the one before wrote (both add to the domain's index).
    for (const [stream, name] of [
      ['room', 'CheckScaffoldRoom'],
      ['blacklist', 'CheckScaffoldEntry'],
    ] as const) {
      const plan = planCommand(copy, stream, name);
      await writePlan(copy, plan);
      for (const f of plan) files.add(f.path);
    }
    // 7 files each; the two commands share the indexes of the domain and the command side.
    expect(files.size).toBe(7 + 7 + 5);
    for (const f of files) {
      expect(
        [...RECIPE_PATHS.readModel, ...RECIPE_PATHS.command].some((t) => pattern(t).test(f)),
        `${f} is a path of the recipes`,
      ).toBe(true);
      expect(existsSync(path.join(copy, f)), f).toBe(true);
      if (f.endsWith('.unit.test.ts')) tests.push(f);
    }
    expect(tests).toHaveLength(3);
  });

  it('refuses names that exist, and streams or names it has no recipe for, writing nothing', () => {
    const before = tree();
    for (const refused of [
      () => planReadModel(copy, 'scaffold-check'),
      () => planReadModel(copy, 'holidays'),
      () => planReadModel(copy, 'Not_A_Name'),
      () => planReadModel(copy, 'elsewhere', 'no-such-stream'),
      () => planCommand(copy, 'room', 'CheckScaffoldRoom'),
      () => planCommand(copy, 'rooms', 'CheckScaffoldRoom'),
      () => planCommand(copy, 'room', 'CreateRoom'),
      () => planCommand(copy, 'blacklist', 'notPascal'),
      () => planCommand(copy, 'timeslot', 'SomethingNew'),
    ])
      expect(refused).toThrow(ScaffoldRefused);
    const r = scaffold('read-model', 'scaffold-check');
    expect(r.status, r.output).toBe(1);
    expect(r.output).toMatch(/^scaffold refused: .* exists/m);
    expect(tree()).toEqual(before);
  });

  it('leaves no partial output when a write fails', async () => {
    const before = tree();
    const plan = planReadModel(copy, 'half-written');
    // A new file of the plan that appears meanwhile: the last write fails, after the others.
    const last = plan.filter((f) => f.kind === 'new').at(-1)!;
    const late = [...plan.filter((f) => f !== last), last];
    writeFileSync(path.join(copy, last.path), 'appeared meanwhile\n');
    const withLate = tree();
    await expect(writePlan(copy, late)).rejects.toThrow(/EEXIST/);
    expect(tree()).toEqual(withLate);
    rmSync(path.join(copy, last.path));
    expect(tree()).toEqual(before);
  });

  it('compiles: tsc --noEmit over what it wrote and changed, and all they import', () => {
    writeFileSync(
      path.join(copy, 'tsconfig.scaffold.json'),
      JSON.stringify({ extends: './tsconfig.json', include: [], files: [...files] }),
    );
    const r = run(process.execPath, [
      'node_modules/typescript/bin/tsc',
      '-p',
      'tsconfig.scaffold.json',
      '--noEmit',
    ]);
    expect(r.output).toBe('');
    expect(r.status).toBe(0);
  });

  it("passes its generated tests and the checks of the recipes' rules", () => {
    const r = run(
      process.execPath,
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        '--config',
        'vitest.config.ts',
        ...tests,
        'platform/src/table-owners.unit.test.ts',
        'command-service/src/streams/streams.unit.test.ts',
      ],
      { RR_TEST_KIND: 'unit' },
    );
    expect(r.status, r.output).toBe(0);
    expect(r.output).toMatch(/Test Files\s+5 passed \(5\)/);
  });
});
