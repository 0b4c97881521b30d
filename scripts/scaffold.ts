/**
 * The recipes of CONTRIBUTING.md ("Add a command", "Add a read model") as a program: it writes
 * exactly the files the recipes name, so following the recipe and running this are the same.
 *
 *   npm run scaffold -- read-model <name> [--stream <kind>]
 *   npm run scaffold -- command <stream> <CommandName>
 *
 * It checks everything before it writes anything: a name that exists (a file, a table, a
 * projection, a command or event type, a route function) is refused, and an error while writing
 * puts back every file it changed and removes every file it made, so it never leaves half a
 * scaffold. server/src/scaffold.int.test.ts runs it into a copy of the repository and compiles and
 * tests what it wrote.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as prettier from 'prettier';
import { streams } from '@rr/events';
import * as catalogue from '@rr/events';

/** A file the scaffold writes: a new one, or an existing one it adds a line to. */
export interface PlannedFile {
  path: string;
  text: string;
  kind: 'new' | 'edit';
}

const ROOT = path.resolve(import.meta.dirname, '..');

// --- names --------------------------------------------------------------------------------------

const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const PASCAL = /^[A-Z][a-z0-9]+([A-Z][a-z0-9]+)*$/;

const words = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .split('-');
const kebab = (name: string) => words(name).join('-');
const snake = (name: string) => words(name).join('_');
const pascal = (name: string) =>
  words(name)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
const camel = (name: string) => pascal(name).charAt(0).toLowerCase() + pascal(name).slice(1);

// --- the paths of the recipes ---------------------------------------------------------------------

/**
 * The files of a read model, by the recipe's steps. Called with placeholders (`<name>`, `<NNN>`)
 * it gives the paths CONTRIBUTING.md names; the test holds the two to each other.
 */
export function readModelPaths(name: string, migrationName: string) {
  return {
    migration: `platform/migrations/${migrationName}.ts`,
    owners: 'platform/src/table-owners.ts',
    projection: `projections/src/${name}.ts`,
    projectionTest: `projections/src/${name}.unit.test.ts`,
    projections: 'projections/src/index.ts',
    query: `query-service/src/${name}.ts`,
    queries: 'query-service/src/index.ts',
  };
}

/** The files of a command on a stream of `area`, by the recipe's steps (placeholders as above). */
export function commandPaths(area: string, command: string, stream: string) {
  return {
    decider: `domain/src/${area}/${command}.ts`,
    deciderTest: `domain/src/${area}/${command}.unit.test.ts`,
    domainIndex: 'domain/src/index.ts',
    run: `command-service/src/${area}/${command}.ts`,
    streamModule: `command-service/src/streams/${stream}.ts`,
    route: `command-service/src/${area}/${command}-api.ts`,
    commandIndex: 'command-service/src/index.ts',
  };
}

/** The paths each recipe names for what the scaffold writes, with their placeholders. */
export const RECIPE_PATHS = {
  readModel: Object.values(readModelPaths('<name>', '<NNN>_<name>')),
  command: Object.values(commandPaths('<area>', '<command>', '<stream>')),
};

// --- the streams a command can be scaffolded on -------------------------------------------------

/**
 * What the command side knows of a stream: its domain module (state, fold), its loader and append
 * (command-service/src/streams/), and one past event for the decider's test. A stream that is not
 * here has a loader of its own shape (several streams, state rows): write its command by hand.
 */
const COMMAND_STREAMS = {
  room: {
    folder: 'rooms',
    domainModule: './room.ts',
    state: 'RoomState',
    evolve: 'evolveRoom',
    initial: 'initialRoomState',
    event: 'RoomEvent',
    what: 'Room',
    key: 'roomId',
    keySchema: "z.uuid('Not a valid id')",
    keyValue: "'5f0c6a52-9a64-4f3e-8d4b-2a1f0c3d9e71'",
    load: (key: string) => `lockAndLoadRoom(s, ${key})`,
    loadImports: ['lockAndLoadRoom'],
    eventsImports: [] as string[],
    append: 'appendToRoom',
    pastEventImport: 'RoomCreated',
    pastEvent: (key: string) =>
      `RoomCreated.create({ roomId: ${key}, name: 'Reading room', description: '', capacity: 10, openStart: { type: 'DAY', value: 0 }, openEnd: { type: 'DAY', value: 14 } })`,
  },
  blacklist: {
    folder: 'blacklist',
    domainModule: './blacklist-entry.ts',
    state: 'BlacklistState',
    evolve: 'evolveBlacklist',
    initial: 'initialBlacklistState',
    event: 'BlacklistEvent',
    what: 'Blacklist entry',
    key: 'entryKey',
    keySchema: 'z.string().min(1)',
    keyValue: "'c'.repeat(40)",
    load: (key: string) =>
      `s.lockStream(blacklistStreamId(${key})).then(() => loadBlacklistEntry(s, ${key}))`,
    loadImports: ['loadBlacklistEntry'],
    eventsImports: ['blacklistStreamId'],
    append: 'appendToBlacklist',
    pastEventImport: 'BlacklistEntryAdded',
    pastEvent: (key: string) =>
      `BlacklistEntryAdded.create({ entryKey: ${key}, expiredAt: '2099-12-31' })`,
  },
} as const;
type CommandStream = keyof typeof COMMAND_STREAMS;

// --- reading the repository -----------------------------------------------------------------------

const read = (root: string, file: string) => readFileSync(path.join(root, file), 'utf8');

function sourcesUnder(root: string, dir: string): string[] {
  const full = path.join(root, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full, { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return sourcesUnder(root, rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

/** The folders of migrations: each package's `migrations/` (the platform's and the modules'). */
function migrationDirs(root: string): string[] {
  const { workspaces } = JSON.parse(read(root, 'package.json')) as { workspaces: string[] };
  return workspaces.map((w) => `${w}/migrations`).filter((dir) => existsSync(path.join(root, dir)));
}

/** The next migration number: one sequence over every package's migrations. */
export function nextMigrationNumber(root: string): string {
  const numbers = migrationDirs(root).flatMap((dir) =>
    readdirSync(path.join(root, dir)).flatMap((f) => {
      const m = /^(\d{3})_/.exec(f);
      return m ? [Number(m[1])] : [];
    }),
  );
  return String(Math.max(0, ...numbers) + 1).padStart(3, '0');
}

/** Refuses the scaffold with a reason; nothing has been written when it is thrown. */
export class ScaffoldRefused extends Error {}

function refuseIf(condition: boolean, reason: string): void {
  if (condition) throw new ScaffoldRefused(reason);
}

/** Inserts `line` after the last line matching `after`. */
function insertAfterLast(text: string, after: RegExp, line: string, file: string): string {
  const lines = text.split('\n');
  let at = -1;
  for (const [i, l] of lines.entries()) if (after.test(l)) at = i;
  refuseIf(at < 0, `${file}: found no place for ${line.trim()}`);
  lines.splice(at + 1, 0, line);
  return lines.join('\n');
}

/** After the last import statement (single- or multi-line) of a module. */
const addImport = (text: string, line: string, file: string) =>
  insertAfterLast(text, /^(import .* from '[^']+';|\} from '[^']+';)$/, line, file);

/** Into the list a function returns: right after its `return [`. */
function addToListAfter(text: string, fn: string, line: string, file: string): string {
  const start = text.indexOf(fn);
  refuseIf(start < 0, `${file} has no ${fn}: add the line by hand`);
  const open = text.indexOf('return [\n', start);
  refuseIf(open < 0, `${file}: ${fn} returns no list`);
  const at = open + 'return [\n'.length;
  return text.slice(0, at) + line + '\n' + text.slice(at);
}

// --- a read model ---------------------------------------------------------------------------------

/** The files of a new read model `name` over the stream `kind`, or the reason there are none. */
export function planReadModel(root: string, name: string, kind = 'room'): PlannedFile[] {
  refuseIf(!KEBAB.test(name), `a read model's name is lower-case-with-hyphens: ${name}`);
  const stream = streams.find((s) => s.kind === kind);
  if (!stream)
    throw new ScaffoldRefused(
      `no stream ${kind}; the streams: ${streams.map((s) => s.kind).join(', ')}`,
    );
  const streamExport = Object.entries(catalogue).find(([, v]) => v === stream)?.[0];
  if (!streamExport) throw new ScaffoldRefused(`the stream ${kind} is not exported by @rr/events`);
  const types = stream.events.map((e) => e.type);
  const handled = types[0]!;

  const table = `rm_${snake(name)}`;
  const number = nextMigrationNumber(root);
  const paths = readModelPaths(name, `${number}_${snake(name)}`);
  const projectionConst = `${camel(name)}Projection`;
  const routesFn = `${camel(name)}QueryRoutes`;

  for (const p of [paths.migration, paths.projection, paths.projectionTest, paths.query])
    refuseIf(existsSync(path.join(root, p)), `${p} exists`);
  const tableWord = new RegExp(`\\b${table}\\b`);
  for (const file of [
    paths.owners,
    ...migrationDirs(root).flatMap((dir) => sourcesUnder(root, dir)),
  ])
    refuseIf(tableWord.test(read(root, file)), `the table ${table} exists (${file})`);
  for (const file of sourcesUnder(root, 'projections/src'))
    refuseIf(
      read(root, file).includes(`name: '${name}'`),
      `a projection named ${name} exists (${file})`,
    );
  const projections = read(root, paths.projections);
  const queries = read(root, paths.queries);
  refuseIf(projections.includes(projectionConst), `${projectionConst} exists`);
  refuseIf(queries.includes(routesFn), `${routesFn} exists`);

  const migration = `import type { Knex } from 'knex';

// Forward-only (no down): see platform/src/migrations.ts. A new table only: the previous release
// runs beside it during a rolling upgrade and does not know it.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(\`
      -- The read model ${name} (projections/src/${name}.ts): one row per ${kind} stream that
      -- has had ${handled}, with the time the event was recorded at.
      CREATE TABLE IF NOT EXISTS ${table} (
        stream_id text PRIMARY KEY,
        recorded_at timestamptz NOT NULL
      );
    \`);
}
`;

  const handlers = types
    .map((t) =>
      t === handled
        ? `  async ${t}(e, client) {
    await client.query(
      'INSERT INTO ${table} (stream_id, recorded_at) VALUES ($1, $2) ON CONFLICT (stream_id) DO NOTHING',
      [e.streamId, e.createdAt],
    );
  },`
        : `  ${t}: ignore,`,
    )
    .join('\n');
  const projection = `import {
  appliedBy,
  handlersFor,
  ignore,
  ${streamExport},
  type Projection,
  type Step,
} from '@rr/events';
import type { PoolClient } from '@rr/platform';

/**
 * Every event type of the ${kind} stream, handled or \`ignore\`: a type added to the stream fails
 * to compile here until this read model decides on it. The time is the event's, never the
 * clock's, so a rebuild gives the same rows.
 */
const handlers = handlersFor(${streamExport}).with<PoolClient, Step>({
${handlers}
});

export const ${projectionConst}: Projection = {
  name: '${name}',
  derivedOnly: true,
  tables: ['${table}'],
  ...appliedBy(handlers),
};
`;

  const projectionTest = `import { describe, expect, it } from 'vitest';
import { ${projectionConst} } from './${name}.ts';
import { readModelProjections } from './index.ts';

describe('the ${name} read model', () => {
  it('subscribes to exactly the types its handler map handles', () => {
    expect([...${projectionConst}.handles]).toEqual(['${handled}']);
  });

  it('owns its table, which a rebuild empties', () => {
    expect(${projectionConst}.tables).toEqual(['${table}']);
  });

  it('is one of the read models the query side waits for', () => {
    expect(readModelProjections.map((p) => p.name)).toContain('${name}');
  });
});
`;

  const query = `import { defineRoute, z, type RouteDef } from '@rr/platform';
import type { QueryDeps } from './deps.ts';

const Entry = z.object({ streamId: z.string(), recordedAt: z.string() });

/** The read model ${name} (${table}): read from its table only. */
export function ${routesFn}({ pool }: QueryDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/admin/${name}',
      summary: 'The ${kind} streams that have had ${handled}, oldest first',
      tags: ['${name}'],
      access: ['admin'],
      responses: {
        200: { description: 'The entries', schema: z.object({ content: z.array(Entry) }) },
      },
      handler: async () => {
        const { rows } = await pool.query<{ stream_id: string; recorded_at: Date }>(
          'SELECT stream_id, recorded_at FROM ${table} ORDER BY recorded_at, stream_id LIMIT 1000',
        );
        return {
          body: {
            content: rows.map((r) => ({
              streamId: r.stream_id,
              recordedAt: r.recorded_at.toISOString(),
            })),
          },
        };
      },
    }),
  ];
}
`;

  const owners = insertAfterLast(
    read(root, paths.owners),
    /^ {2}rm_\w+: 'projections\/src\//,
    `  ${table}: '${paths.projection}',`,
    paths.owners,
  );
  const projectionsIndex = addToListAfter(
    addImport(projections, `import { ${projectionConst} } from './${name}.ts';`, paths.projections),
    'export function readModelProjectionsIn(',
    `    ${projectionConst},`,
    paths.projections,
  );
  const queriesIndex = addToListAfter(
    addImport(queries, `import { ${routesFn} } from './${name}.ts';`, paths.queries),
    'export function queryRoutes(',
    `    ...${routesFn}(deps),`,
    paths.queries,
  );

  return [
    { path: paths.migration, text: migration, kind: 'new' },
    { path: paths.owners, text: owners, kind: 'edit' },
    { path: paths.projection, text: projection, kind: 'new' },
    { path: paths.projectionTest, text: projectionTest, kind: 'new' },
    { path: paths.projections, text: projectionsIndex, kind: 'edit' },
    { path: paths.query, text: query, kind: 'new' },
    { path: paths.queries, text: queriesIndex, kind: 'edit' },
  ];
}

// --- a command ------------------------------------------------------------------------------------

/** The files of a new command `name` on a stream, or the reason there are none. */
export function planCommand(root: string, streamOrArea: string, name: string): PlannedFile[] {
  // The stream (`room`) or its area's folder (`rooms`).
  const area = (Object.keys(COMMAND_STREAMS) as CommandStream[]).find(
    (k) => k === streamOrArea || COMMAND_STREAMS[k].folder === streamOrArea,
  );
  if (!area)
    throw new ScaffoldRefused(
      `no command scaffold for the stream ${streamOrArea}; it writes commands on: ${Object.keys(COMMAND_STREAMS).join(', ')}`,
    );
  refuseIf(!PASCAL.test(name), `a command's name is PascalCase: ${name}`);
  const s = COMMAND_STREAMS[area];
  const file = kebab(name);
  const paths = commandPaths(s.folder, file, area);
  const decide = `decide${name}`;
  const run = `run${name}`;
  const routesFn = `${camel(name)}CommandRoutes`;
  const commandType = `${name}Command`;

  for (const p of [paths.decider, paths.deciderTest, paths.run, paths.route])
    refuseIf(existsSync(path.join(root, p)), `${p} exists`);
  const typeName = new RegExp(`'${name}'|\\b(${decide}|${run}|${routesFn}|${commandType})\\b`);
  for (const f of [
    ...sourcesUnder(root, 'domain/src'),
    ...sourcesUnder(root, 'events/src'),
    ...sourcesUnder(root, 'command-service/src'),
  ])
    refuseIf(typeName.test(read(root, f)), `${name} exists as a command or event (${f})`);

  const key = s.key;
  const decider = `import type { ${s.event} } from '@rr/events/catalogue';
import { type Decide, type Now, unhandled } from '../decider.ts';
import { refuse } from '../refusal.ts';
import type { ${s.state} } from '${s.domainModule}';

export type ${commandType} = { type: '${name}'; data: { ${key}: string } };

/**
 * Pure. Decided on the ${area}'s stream, folded: refused while the stream has no events. It
 * answers no events until the command's event is defined (CONTRIBUTING.md, "Add an event").
 */
export const ${decide}: Decide<${commandType}, ${s.state}, Now, ${s.event}[]> = (
  command,
  state,
) => {
  switch (command.type) {
    case '${name}':
      if (state.version === 0) throw refuse.notFound('${s.what}');
      return [];
    default:
      // A command of one type narrows by its type only; a second type joins the union above.
      return unhandled(command.type);
  }
};
`;

  const deciderTest = `import { describe, it } from 'vitest';
import { ${s.pastEventImport} } from '@rr/events/catalogue';
import { history, scenario } from '../testing/given-when-then.ts';
import { ${s.evolve}, ${s.initial} } from '${s.domainModule}';
import { ${decide} } from './${file}.ts';

const ${key} = ${s.keyValue};
const now = new Date('2026-11-23T09:00:00Z');
const ${camel(name)} = scenario(${decide}, { now, today: '2026-11-23', time: '10:00' });

describe('${name}', () => {
  it('is refused on a stream without events', () => {
    ${camel(name)}
      .given(history(${s.evolve}, ${s.initial}))
      .when({ type: '${name}', data: { ${key} } })
      .thenRefused('not_found');
  });

  it('decides on the folded stream', () => {
    ${camel(name)}
      .given(history(${s.evolve}, ${s.initial}, ${s.pastEvent(key)}))
      .when({ type: '${name}', data: { ${key} } })
      .then([]);
  });
});
`;

  const eventsImports = ['type Actor', ...s.eventsImports].sort((a, b) =>
    a.replace('type ', '').localeCompare(b.replace('type ', '')),
  );
  const runText = `import { ${eventsImports.join(', ')} } from '@rr/events';
import { ${decide}, type ${commandType} } from '@rr/domain';
import type { CommandDeps } from '../deps.ts';
import { decisionTime, handleCommand } from '../command.ts';
import { ${s.append}, ${s.loadImports.join(', ')} } from '../streams/${area}.ts';

/**
 * Runs ${name}: locks and folds the stream, decides, appends at the version read.
 * Answers the position read-your-writes waits for.
 */
export async function ${run}(
  deps: CommandDeps,
  actor: Actor,
  command: ${commandType},
): Promise<string> {
  const { ${key} } = command.data;
  const { position } = await handleCommand(deps.store, {
    actor,
    load: (s) => ${s.load(key)},
    decide: (state) => ${decide}(command, state, decisionTime(deps)),
    appends: (events, state) => ${s.append}(${key}, state, events),
    answer: () => null,
  });
  return position;
}
`;

  const route = `import { defineRoute, z, type RouteDef } from '@rr/platform';
import { actorOf, type CommandDeps } from '../deps.ts';
import { ${run} } from './${file}.ts';

/** ${name}: parses, runs the command, answers; nothing else. */
export function ${routesFn}(deps: CommandDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/admin/${s.folder}/{${key}}/${file}',
      summary: '${name}',
      tags: ['${s.folder}'],
      access: ['admin'],
      params: z.object({ ${key}: ${s.keySchema} }),
      responses: {
        200: { description: 'Decided', schema: z.object({ position: z.string() }) },
        404: { description: 'not_found' },
      },
      handler: async ({ params, user }) => ({
        body: {
          position: await ${run}(deps, actorOf(user), {
            type: '${name}',
            data: { ${key}: params.${key} },
          }),
        },
      }),
    }),
  ];
}
`;

  const domainIndex = read(root, paths.domainIndex).replace(/\n*$/, '\n');
  const streamModule = read(root, paths.streamModule);
  const writers = /export const writers = \[([^\]]*)\] as const;/;
  refuseIf(!writers.test(streamModule), `${paths.streamModule} lists no writers`);
  const writer = `${s.folder}/${file}.ts`;
  const commandIndex = read(root, paths.commandIndex);

  return [
    { path: paths.decider, text: decider, kind: 'new' },
    { path: paths.deciderTest, text: deciderTest, kind: 'new' },
    {
      path: paths.domainIndex,
      text: `${domainIndex}export * from './${s.folder}/${file}.ts';\n`,
      kind: 'edit',
    },
    { path: paths.run, text: runText, kind: 'new' },
    {
      path: paths.streamModule,
      text: streamModule.replace(
        writers,
        (_, list: string) =>
          `export const writers = [${list.trim().replace(/,$/, '')}, '${writer}'] as const;`,
      ),
      kind: 'edit',
    },
    { path: paths.route, text: route, kind: 'new' },
    {
      path: paths.commandIndex,
      text: addToListAfter(
        addImport(
          commandIndex,
          `import { ${routesFn} } from './${s.folder}/${file}-api.ts';`,
          paths.commandIndex,
        ),
        'export function commandRoutes(',
        `    ...${routesFn}(deps),`,
        paths.commandIndex,
      ),
      kind: 'edit',
    },
  ];
}

// --- writing --------------------------------------------------------------------------------------

/**
 * Writes the planned files, formatted as the repository formats them. All or nothing: a new file
 * that appeared meanwhile, or any error while writing, puts back every file changed and removes
 * every file and folder made.
 */
export async function writePlan(root: string, plan: readonly PlannedFile[]): Promise<void> {
  const formatted = await Promise.all(
    plan.map(async (f) => {
      const full = path.join(root, f.path);
      const options = (await prettier.resolveConfig(full)) ?? {};
      return { ...f, full, text: await prettier.format(f.text, { ...options, filepath: full }) };
    }),
  );
  const originals = new Map<string, string>();
  const made: string[] = [];
  try {
    for (const f of formatted) {
      if (f.kind === 'edit') {
        originals.set(f.full, readFileSync(f.full, 'utf8'));
        writeFileSync(f.full, f.text);
      } else {
        const dir = mkdirSync(path.dirname(f.full), { recursive: true });
        if (dir) made.push(dir);
        writeFileSync(f.full, f.text, { flag: 'wx' });
        made.push(f.full);
      }
    }
  } catch (err) {
    for (const [full, text] of originals) writeFileSync(full, text);
    for (const full of made.reverse()) rmSync(full, { recursive: true, force: true });
    throw err;
  }
}

const USAGE = `npm run scaffold -- read-model <name> [--stream <kind>]
npm run scaffold -- command <stream> <CommandName>`;

async function main(args: string[]): Promise<number> {
  const [what, ...rest] = args;
  const stream = rest.indexOf('--stream');
  const kind = stream >= 0 ? rest[stream + 1] : undefined;
  const positional = stream >= 0 ? rest.filter((_, i) => i !== stream && i !== stream + 1) : rest;
  try {
    let plan: PlannedFile[];
    if (what === 'read-model' && positional.length === 1)
      plan = planReadModel(ROOT, positional[0]!, kind);
    else if (what === 'command' && positional.length === 2 && kind === undefined)
      plan = planCommand(ROOT, positional[0]!, positional[1]!);
    else {
      console.error(USAGE);
      return 2;
    }
    await writePlan(ROOT, plan);
    for (const f of plan) console.log(`${f.kind === 'new' ? 'wrote  ' : 'changed'} ${f.path}`);
    return 0;
  } catch (err) {
    if (!(err instanceof ScaffoldRefused)) throw err;
    console.error(`scaffold refused: ${err.message}`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href)
  process.exitCode = await main(process.argv.slice(2));
