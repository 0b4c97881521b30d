// Over 300 lines: one benchmark script, read top to bottom; the manifest walk and its checks exist
// for its one figure only.
/**
 * Visitor JS bundle size (`npm run bench:bundle`), target: gzip ≤ 150,000 bytes.
 *
 * Counts every JavaScript file the visitor app (page `/`, `frontend/index.html`, German, the
 * default language) downloads over the whole visitor journey: the page's scripts, their static
 * imports, the visitor interface (privacy notice, room chooser, monthly calendar, cart, personal
 * data, confirmation and "your reservations" of the mail link) with its lazy parts, and the
 * German text catalogues the visitor loads. The seat picker (plan, list and zoom of a room with a
 * seat plan) is a chunk only such a room loads, and so is the seat's page its QR code leads to;
 * the switch "reminders as notifications" of "my bookings" is a chunk only a server with web push
 * (WEB_PUSH_VAPID_PUBLIC_KEY, off by default) loads, the wallet links of "my bookings" one
 * only a server making wallet passes loads, and the campus sign-in of the personal data step one
 * only a library with visitor sign-in loads, and the site chooser with the site's details one only
 * a library with several sites loads: they are measured apart and not counted in the
 * limit, and they must stay out of the rest of the download. So is the notice over saved
 * tickets (components/offline-notice.tsx), which only a device offline loads (from the service
 * worker's precache). Each file is compressed on its own with zlib level 9 (as a server
 * compresses each response); the sum is compared with the limit and the script exits 1 when it
 * is over.
 *
 * The graph comes from the Vite manifest (`frontend/dist/.vite/manifest.json`) and the list of
 * source modules per chunk (`chunk-modules.json`, written by a plugin in vite.config.ts). The
 * walk fails instead of guessing: a dynamic import it cannot classify, a JS file of the build no
 * page loads, a visitor screen missing from the download or a staff module inside it stop the
 * script. Further figures: the admin app's own JS (what only `/admin/` downloads) and the
 * occupancy display's (what only `/display/` downloads; the visitor never loads it).
 *
 * Builds the frontend first when `frontend/dist` has no build with a manifest, or always with
 * BENCH_BUILD=1. Writes the figures to `bench-results.json` under the key `bundle`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Manifest } from 'vite';
import { cataloguesOf } from '../../frontend/src/i18n/catalogues.ts';
import { printTable, repoRoot, round, runMain, writeResults } from './lib.ts';

/** The target "Visitor JS bundle, gzip ≤ 150 KB", in bytes. */
const LIMIT_BYTES = 150_000;

const frontendDir = path.join(repoRoot, 'frontend');
const distDir = path.join(frontendDir, 'dist');
const manifestFile = path.join(distDir, '.vite', 'manifest.json');
const chunkModulesFile = path.join(distDir, '.vite', 'chunk-modules.json');

type Language = 'de' | 'en';
type Interface = 'user' | 'admin' | 'display';

/**
 * Source modules of the visitor journey: each must be in the visitor download (a screen moved
 * behind a new lazy import the walk does not follow would otherwise go uncounted).
 */
const VISITOR_MODULES: readonly [string, string][] = [
  ['page entry', 'src/main.tsx'],
  ['visitor interface', 'src/app/user-app.tsx'],
  ['privacy notice', 'src/features/privacy/components/privacy-overlay.tsx'],
  ['room chooser', 'src/features/rooms/components/room-chooser.tsx'],
  ['monthly calendar', 'src/features/booking/components/room-booking.tsx'],
  ['monthly calendar', 'src/components/calendar/month-calendar.tsx'],
  ['cart', 'src/features/booking/components/cart-panel.tsx'],
  ['cart summary', 'src/features/booking/components/summary-page.tsx'],
  ['personal-data form', 'src/features/booking/components/personal-data-form.tsx'],
  ['confirmation', 'src/features/booking/components/reservation-confirmation.tsx'],
  ['your reservations', 'src/features/booking/components/your-reservations.tsx'],
];

/** The seat picker's lazy module: loaded only on the page of a room with a seat plan. */
const SEAT_PICKER_MODULE = 'src/features/booking/components/seat-picker.tsx';
/** The seat's page (its QR code) is a lazy module too: only rooms with a seat plan have seats. */
const SEAT_PAGE_MODULE = 'src/features/booking/components/seat-page/seat-page.tsx';
/** The push switch of "my bookings": loaded only when the server offers web push. */
const PUSH_MODULE = 'src/features/booking/components/push-reminders.tsx';
/** The notice that the tickets shown are the saved ones: loaded only offline, not counted. */
const OFFLINE_MODULE = 'src/features/booking/components/offline-notice.tsx';
/** The wallet links of "my bookings": loaded only from a server that makes wallet passes. */
const WALLET_LINKS_MODULE = 'src/features/booking/components/wallet-links.tsx';
/**
 * The campus sign-in of the personal data step: loaded only where the library lets visitors sign
 * in (VISITOR_OIDC_ISSUER, VISITOR_SAML_IDP_METADATA), measured apart like the seat picker.
 */
const VISITOR_ACCOUNT_MODULE = 'src/features/booking/components/visitor-account.tsx';
/**
 * The visitors' side of sites (the site chooser, the site's details above the pages, an unknown
 * site's address) with its texts: loaded only by a library with several sites or at a site's own
 * address (`/s/{slug}/`), measured apart like the seat picker.
 */
const SITES_MODULE = 'src/app/site-parts.tsx';

/**
 * Source modules that must not be in the visitor download (staff screens and texts, the
 * occupancy display and its texts).
 */
const STAFF_MODULE =
  /^src\/(app\/(admin|display)-app\.tsx|features\/(admin-|reports|dashboard|auth|display\/)|i18n\/(staff|display)\.|styles\/display\.css)/;

/** A text catalogue chunk: `src/i18n/de.json`, `src/i18n/visitor.de.json`, ... */
const CATALOGUE = /^src\/i18n\/(?:(visitor|staff|display)\.)?(de|en)\.json$/;

/** The lazily loaded interfaces of the entry (src/app/app.tsx) by data-interface. */
const INTERFACE_MODULES: Readonly<Record<Interface, string>> = {
  user: 'src/app/user-app.tsx',
  admin: 'src/app/admin-app.tsx',
  display: 'src/app/display-app.tsx',
};

function build(reason: string): void {
  console.log(`building the frontend (${reason}) ...`);
  const run = spawnSync('npm', ['run', 'build', '-w', 'frontend'], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  if (run.status !== 0) throw new Error(`npm run build -w frontend failed (${run.status})`);
}

function ensureBuild(): void {
  if (process.env.BENCH_BUILD === '1') build('BENCH_BUILD=1');
  else if (!existsSync(path.join(distDir, 'index.html'))) build('frontend/dist/index.html missing');
  else if (!existsSync(manifestFile) || !existsSync(chunkModulesFile)) {
    build('the build in frontend/dist has no manifest');
  } else console.log('measuring the existing build in frontend/dist (BENCH_BUILD=1 rebuilds)');
  for (const file of [manifestFile, chunkModulesFile]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: is build.manifest on?`);
  }
}

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

interface Page {
  /** Path of the HTML file below frontend/dist. */
  html: string;
  interface: Interface;
  language: Language;
  /**
   * The journey goes through a room with a seat plan (it loads the seat picker) on a server with
   * web push (it loads the push switch): the parts not every visitor loads.
   */
  seatPlan?: boolean;
  /** The journey shows saved tickets offline (it loads the offline notice). */
  offline?: boolean;
  /** The server makes wallet passes (its "my bookings" loads the wallet links). */
  wallets?: boolean;
  /** The library lets visitors sign in with the campus identity (it loads their sign-in part). */
  visitorSignIn?: boolean;
  /** The library has several sites (it loads the site chooser and the site's details). */
  sites?: boolean;
}

interface Graph {
  manifest: Manifest;
  /** Manifest key by output file (`assets/x.js`). */
  keyOfFile: Map<string, string>;
  /** Source modules by output file. */
  modules: Record<string, string[]>;
}

/** The manifest keys of the JS files a built HTML page loads by itself. */
function pageScripts(graph: Graph, page: Page): string[] {
  const html = readFileSync(path.join(distDir, page.html), 'utf8');
  const mount = /<div[^>]*\bid="root"[^>]*>/.exec(html)?.[0] ?? '';
  const mode = /\bdata-interface="([^"]*)"/.exec(mount)?.[1];
  const lang = /<html[^>]*\blang="([^"]*)"/.exec(html)?.[1];
  if (mode !== page.interface) {
    throw new Error(`${page.html}: data-interface is ${mode}, expected ${page.interface}`);
  }
  const keys: string[] = [];
  const tags = html.matchAll(/<(script|link)\b[^>]*>/g);
  for (const [tag, name] of tags) {
    const src = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
    const isScript = name === 'script' ? /\btype="module"/.test(tag) || src !== undefined : false;
    const isPreload = name === 'link' && /\brel="modulepreload"/.test(tag);
    if (!isScript && !isPreload) continue;
    if (!src) throw new Error(`${page.html}: inline script (the CSP forbids them): ${tag}`);
    const file = src.replace(/^\//, '');
    const key = graph.keyOfFile.get(file);
    if (!key) throw new Error(`${page.html} loads ${src}, which is not in the Vite manifest`);
    keys.push(key);
  }
  const entry = Object.entries(graph.manifest).find(([, chunk]) => chunk.src === page.html);
  if (entry?.[1].isEntry) keys.push(entry[0]);
  if (keys.length === 0) throw new Error(`${page.html} loads no script`);
  if (page.language === 'de' && lang !== 'de') {
    throw new Error(`${page.html}: lang is ${lang}, expected de (the default language)`);
  }
  return keys;
}

/**
 * Every chunk a page loads for its interface and language: static imports always; dynamic
 * imports by what they are (interface, text catalogue, or a lazy part of the interface).
 */
function walk(graph: Graph, page: Page): Set<string> {
  const start = pageScripts(graph, page);
  const shared = new Set<string>(); // the page's scripts and their static imports
  const staticClosure = (keys: string[], into: Set<string>) => {
    const stack = [...keys];
    while (stack.length) {
      const key = stack.pop()!;
      if (into.has(key)) continue;
      const chunk = graph.manifest[key];
      if (!chunk) throw new Error(`manifest entry ${key} is missing`);
      into.add(key);
      stack.push(...(chunk.imports ?? []));
    }
  };
  // What the page loads before its interface: imports from here must be known ones.
  staticClosure(start, shared);
  const loaded = new Set<string>(shared);
  for (const name of cataloguesOf(page.interface)) {
    const src = `src/i18n/${name === 'main' ? '' : `${name}.`}${page.language}.json`;
    if (!graph.manifest[src]) throw new Error(`catalogue ${src} is not in the Vite manifest`);
  }
  // The frontend's own rule (src/i18n/catalogues.ts): which catalogues an interface loads.
  const catalogues: string[] = cataloguesOf(page.interface);
  const queue = [...shared];
  while (queue.length) {
    const from = queue.shift()!;
    for (const target of graph.manifest[from]?.dynamicImports ?? []) {
      const catalogue = CATALOGUE.exec(target);
      const interfaceOf = Object.entries(INTERFACE_MODULES).find(([, src]) => src === target);
      let follow: boolean;
      if (catalogue) {
        follow = catalogue[2] === page.language && catalogues.includes(catalogue[1] ?? 'main');
      } else if ([SEAT_PICKER_MODULE, SEAT_PAGE_MODULE, PUSH_MODULE].includes(target)) {
        follow = page.seatPlan === true;
      } else if (target === OFFLINE_MODULE) {
        follow = page.offline === true;
      } else if (target === WALLET_LINKS_MODULE) {
        follow = page.wallets === true;
      } else if (target === VISITOR_ACCOUNT_MODULE) {
        follow = page.visitorSignIn === true;
      } else if (target === SITES_MODULE) {
        follow = page.sites === true;
      } else if (interfaceOf) {
        follow = interfaceOf[0] === page.interface;
      } else if (shared.has(from)) {
        throw new Error(
          `unclassified dynamic import ${target} from ${from} (loaded by every page): ` +
            'tell tests/bench/bundle.ts which interface or language loads it',
        );
      } else {
        follow = true; // a lazy part of the interface: the journey loads it
      }
      if (!follow) continue;
      const before = new Set(loaded);
      staticClosure([target], loaded);
      for (const key of loaded) if (!before.has(key)) queue.push(key);
    }
  }
  return loaded;
}

interface FileFigure {
  file: string;
  rawBytes: number;
  gzipBytes: number;
}

function measure(graph: Graph, keys: Iterable<string>): FileFigure[] {
  const files = [...new Set([...keys].map((key) => graph.manifest[key]!.file))];
  return files
    .filter((file) => file.endsWith('.js'))
    .map((file) => {
      const content = readFileSync(path.join(distDir, file));
      return {
        file,
        rawBytes: content.length,
        gzipBytes: gzipSync(content, { level: 9 }).length,
      };
    })
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
}

const sum = (figures: FileFigure[], field: 'rawBytes' | 'gzipBytes') =>
  figures.reduce((total, figure) => total + figure[field], 0);

function modulesOf(graph: Graph, keys: Iterable<string>): Set<string> {
  const modules = new Set<string>();
  for (const key of keys) {
    const file = graph.manifest[key]!.file;
    for (const id of graph.modules[file] ?? []) modules.add(id);
  }
  return modules;
}

/** The visitor download must hold every visitor screen and no staff module or other language. */
function checkVisitorModules(graph: Graph, keys: Set<string>, language: Language): void {
  const modules = modulesOf(graph, keys);
  const missing = VISITOR_MODULES.filter(([, id]) => !modules.has(id));
  const catalogues = [`src/i18n/${language}.json`, `src/i18n/visitor.${language}.json`];
  missing.push(
    ...catalogues.filter((id) => !modules.has(id)).map((id) => ['texts', id] as [string, string]),
  );
  if (missing.length) {
    throw new Error(
      `the visitor download (${language}) lacks ${missing.map(([what, id]) => `${id} (${what})`).join(', ')}: ` +
        'did the chunk graph change? (tests/bench/bundle.ts)',
    );
  }
  const other = language === 'de' ? 'en' : 'de';
  const wrong = [...modules].filter(
    (id) => STAFF_MODULE.test(id) || new RegExp(`^src/i18n/(visitor\\.)?${other}\\.json$`).test(id),
  );
  if (wrong.length) {
    throw new Error(`the visitor download (${language}) holds ${wrong.join(', ')}`);
  }
}

/** Packages below node_modules in a download, with their number of modules. */
function dependencies(graph: Graph, keys: Set<string>): string {
  const counts = new Map<string, number>();
  for (const id of modulesOf(graph, keys)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(id);
    if (match) counts.set(match[1]!, (counts.get(match[1]!) ?? 0) + 1);
  }
  return [...counts]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, count]) => `${name} (${count})`)
    .join(', ');
}

function printFigures(title: string, figures: FileFigure[], label: (file: string) => string) {
  console.log(`\n${title}`);
  printTable(
    ['file', 'part', 'raw B', 'gzip -9 B'],
    [
      ...figures.map((f) => [f.file, label(f.file), f.rawBytes, f.gzipBytes]),
      ['total', '', sum(figures, 'rawBytes'), sum(figures, 'gzipBytes')],
    ],
  );
}

async function main(): Promise<void> {
  ensureBuild();
  const manifest = readJson(manifestFile) as Manifest;
  const modules = readJson(chunkModulesFile) as Record<string, string[]>;
  const keyOfFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
  const graph: Graph = { manifest, keyOfFile, modules };

  const visitorDe = walk(graph, { html: 'index.html', interface: 'user', language: 'de' });
  const visitorEn = walk(graph, { html: 'index.html', interface: 'user', language: 'en' });
  const withPlan = (language: Language) =>
    walk(graph, { html: 'index.html', interface: 'user', language, seatPlan: true });
  const visitorPlanDe = withPlan('de');
  const visitorPlanEn = withPlan('en');
  const offline = walk(graph, {
    html: 'index.html',
    interface: 'user',
    language: 'en',
    offline: true,
  });
  const visitorWallets = (language: Language) =>
    walk(graph, { html: 'index.html', interface: 'user', language, wallets: true });
  const visitorWalletsDe = visitorWallets('de');
  const visitorWalletsEn = visitorWallets('en');
  const signInDe = walk(graph, {
    html: 'index.html',
    interface: 'user',
    language: 'de',
    visitorSignIn: true,
  });
  const signInEn = walk(graph, {
    html: 'index.html',
    interface: 'user',
    language: 'en',
    visitorSignIn: true,
  });
  const sitesDe = walk(graph, {
    html: 'index.html',
    interface: 'user',
    language: 'de',
    sites: true,
  });
  const sitesEn = walk(graph, {
    html: 'index.html',
    interface: 'user',
    language: 'en',
    sites: true,
  });
  const adminDe = walk(graph, { html: 'admin/index.html', interface: 'admin', language: 'de' });
  const adminEn = walk(graph, { html: 'admin/index.html', interface: 'admin', language: 'en' });
  const displayDe = walk(graph, {
    html: 'display/index.html',
    interface: 'display',
    language: 'de',
  });
  const displayEn = walk(graph, {
    html: 'display/index.html',
    interface: 'display',
    language: 'en',
  });
  checkVisitorModules(graph, visitorDe, 'de');
  checkVisitorModules(graph, visitorEn, 'en');
  // The seat picker is a chunk of its own: in the journey through a room with a plan only.
  for (const lazyModule of [
    SEAT_PICKER_MODULE,
    SEAT_PAGE_MODULE,
    PUSH_MODULE,
    WALLET_LINKS_MODULE,
    VISITOR_ACCOUNT_MODULE,
    SITES_MODULE,
  ])
    if (modulesOf(graph, visitorDe).has(lazyModule))
      throw new Error(`${lazyModule} is in the visitor download of every room`);
  if (!modulesOf(graph, visitorPlanDe).has(SEAT_PICKER_MODULE)) {
    throw new Error(`${SEAT_PICKER_MODULE} is not in the download of a room with a seat plan`);
  }

  // Every JS file of the build is loaded by some page, so none is left out unnoticed.
  const reached = new Set(
    [
      ...visitorPlanDe,
      ...visitorPlanEn,
      ...offline,
      ...visitorWalletsDe,
      ...visitorWalletsEn,
      ...signInDe,
      ...signInEn,
      ...sitesDe,
      ...sitesEn,
      ...adminDe,
      ...adminEn,
      ...displayDe,
      ...displayEn,
    ].map((key) => manifest[key]!.file),
  );
  const assets = readdirSync(path.join(distDir, 'assets')).filter((f) => f.endsWith('.js'));
  const unreached = assets.map((f) => `assets/${f}`).filter((file) => !reached.has(file));
  if (unreached.length) {
    throw new Error(`JS files no page loads (classify them in bundle.ts): ${unreached.join(', ')}`);
  }

  const visitor = measure(graph, visitorDe);
  const english = measure(graph, visitorEn);
  // What only /admin/ loads (German page): the admin interface and its texts.
  const adminOnly = measure(
    graph,
    [...adminDe].filter((key) => !visitorDe.has(key) && !visitorEn.has(key)),
  );
  const adminPage = measure(graph, adminDe);
  // What only a room with a seat plan loads besides (German page): the seat picker.
  const seatPlanOnly = measure(
    graph,
    [...visitorPlanDe].filter((key) => !visitorDe.has(key)),
  );
  // What only a server that makes wallet passes loads besides (German page): the wallet links.
  const walletsOnly = measure(
    graph,
    [...visitorWalletsDe].filter((key) => !visitorDe.has(key)),
  );
  // What only a library with visitor sign-in loads besides (German page): the sign-in part.
  const signInOnly = measure(
    graph,
    [...signInDe].filter((key) => !visitorDe.has(key)),
  );
  // What only a library with several sites loads besides (German page): the sites' parts.
  const sitesOnly = measure(
    graph,
    [...sitesDe].filter((key) => !visitorDe.has(key)),
  );
  // What only /display/ loads (German page): the display interface and its texts.
  const displayOnly = measure(
    graph,
    [...displayDe].filter((key) => !visitorDe.has(key) && !visitorEn.has(key)),
  );
  const englishOnly = measure(
    graph,
    [...visitorEn, ...adminEn, ...displayEn].filter(
      (key) => !visitorDe.has(key) && !adminDe.has(key) && !displayDe.has(key),
    ),
  );

  const start = new Set(
    pageScripts(graph, { html: 'index.html', interface: 'user', language: 'de' }).map(
      (key) => manifest[key]!.file,
    ),
  );
  const part = (file: string) => {
    const key = keyOfFile.get(file)!;
    const src = manifest[key]!.src;
    if (start.has(file)) return 'page script';
    if (src && CATALOGUE.test(src)) return `texts ${src.replace('src/i18n/', '')}`;
    if (src) return `lazy ${src.replace(/^src\//, '')}`;
    return 'shared';
  };
  printFigures('Visitor app JS (page /, German, whole journey):', visitor, part);
  printFigures(
    'Seat picker and push switch JS (German; only a room with a seat plan or a server with web push loads these, not counted):',
    seatPlanOnly,
    part,
  );
  printFigures(
    'Visitor sign-in JS (German; only with visitor sign-in configured, not counted):',
    signInOnly,
    part,
  );
  printFigures(
    'Site chooser JS (German; only a library with several sites loads these, not counted):',
    sitesOnly,
    part,
  );
  printFigures('Admin app JS (German; only /admin/ loads these):', adminOnly, part);
  printFigures('Display JS (German; only /display/ loads these):', displayOnly, part);
  console.log(`\nnot counted, English pages only: ${englishOnly.map((f) => f.file).join(', ')}`);

  const visitorGzip = sum(visitor, 'gzipBytes');
  const ratio = visitorGzip / LIMIT_BYTES;
  const pass = visitorGzip <= LIMIT_BYTES;
  console.log('');
  printTable(
    ['figure', 'raw B', 'gzip -9 B'],
    [
      ['visitor app JS (German)', sum(visitor, 'rawBytes'), visitorGzip],
      ['visitor app JS (English)', sum(english, 'rawBytes'), sum(english, 'gzipBytes')],
      [
        'seat picker JS (rooms with a plan only)',
        sum(seatPlanOnly, 'rawBytes'),
        sum(seatPlanOnly, 'gzipBytes'),
      ],
      [
        'wallet links JS (servers with wallets only)',
        sum(walletsOnly, 'rawBytes'),
        sum(walletsOnly, 'gzipBytes'),
      ],
      [
        'visitor sign-in JS (with visitor sign-in only)',
        sum(signInOnly, 'rawBytes'),
        sum(signInOnly, 'gzipBytes'),
      ],
      [
        'site chooser JS (libraries with several sites only)',
        sum(sitesOnly, 'rawBytes'),
        sum(sitesOnly, 'gzipBytes'),
      ],
      ['admin app JS (admin-only chunks)', sum(adminOnly, 'rawBytes'), sum(adminOnly, 'gzipBytes')],
      [
        'admin page JS (German, all it loads)',
        sum(adminPage, 'rawBytes'),
        sum(adminPage, 'gzipBytes'),
      ],
      [
        'display JS (display-only chunks)',
        sum(displayOnly, 'rawBytes'),
        sum(displayOnly, 'gzipBytes'),
      ],
    ],
  );
  console.log(`\nvisitor dependencies (modules): ${dependencies(graph, visitorDe)}`);
  console.log(
    `\nvisitor app JS, gzip: ${visitorGzip.toLocaleString('en')} B = ${round(ratio * 100, 1)} % ` +
      `of the limit ${LIMIT_BYTES.toLocaleString('en')} B: ${pass ? 'within' : 'OVER'} the limit`,
  );

  const totals = (figures: FileFigure[]) => ({
    rawBytes: sum(figures, 'rawBytes'),
    gzipBytes: sum(figures, 'gzipBytes'),
  });
  await writeResults('bundle', {
    compression: 'zlib gzip level 9, each file on its own',
    limitGzipBytes: LIMIT_BYTES,
    withinLimit: pass,
    ratioToLimit: round(ratio, 4),
    visitor: { page: '/', language: 'de', ...totals(visitor), files: visitor },
    visitorEnglish: { page: '/', language: 'en', ...totals(english) },
    visitorSignInOnly: { page: '/your-personal-data', language: 'de', ...totals(signInOnly) },
    seatPickerOnly: {
      page: '/room/{id} with a seat plan',
      language: 'de',
      ...totals(seatPlanOnly),
    },
    walletLinksOnly: {
      page: '/my-bookings/{token} on a server with wallet passes',
      language: 'de',
      ...totals(walletsOnly),
    },
    sitesOnly: { page: '/ with several sites, /s/{slug}/', language: 'de', ...totals(sitesOnly) },
    adminOnly: { page: '/admin/', language: 'de', ...totals(adminOnly), files: adminOnly },
    adminPage: { page: '/admin/', language: 'de', ...totals(adminPage) },
    displayOnly: { page: '/display/', language: 'de', ...totals(displayOnly), files: displayOnly },
  });
  if (!pass) {
    throw new Error(
      `the visitor app JS is ${visitorGzip.toLocaleString('en')} B gzip, over the limit of ` +
        `${LIMIT_BYTES.toLocaleString('en')} B`,
    );
  }
}

runMain(main);
