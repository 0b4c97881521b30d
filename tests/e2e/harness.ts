import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { expect } from 'vitest';
import { spawnService } from '../support/processes.ts';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';
import { budget } from '../support/time-budget.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
/**
 * Debian's headless shell (the old headless mode, Chromium without the browser's UI: what
 * Playwright itself runs headless) takes a half to two thirds of the CPU of the full browser run
 * headless, and the browser tests are CPU-bound; the full browser serves where the shell is not
 * installed.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const CHROMIUM =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

/** The app's two languages. */
export type Lang = 'de' | 'en';
export const LANGS: readonly Lang[] = ['de', 'en'];

/** A phone's, a tablet's and a desktop's window: the three sizes a screen is checked at. */
export const PHONE_TABLET_DESKTOP = [
  { width: 375, height: 740 },
  { width: 768, height: 1024 },
  { width: 1280, height: 900 },
] as const;

/** Each language at each of the three sizes, language by language (one test each). */
export const LANG_SIZE_RUNS = LANGS.flatMap((lang) =>
  PHONE_TABLET_DESKTOP.map((viewport) => ({ lang, viewport })),
);

/** The admin the e2e servers create on their first start. */
export const E2E_ADMIN = { username: 'admin', password: 'e2e-admin-password' } as const;

export interface RunningServer {
  baseUrl: string;
  /** Where the server writes its mails as .eml files (without SMTP_URL). */
  mailDir: string;
  process: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * Starts the real all-in-one server process (as `npm start` does) against a test database.
 * Without the demo seed (`SEED_DEMO_DATA=false`): each test file creates the data it relies on
 * (test-rooms.ts). A caller that wants the demo data passes `SEED_DEMO_DATA: 'true'` in `env`.
 */
export async function startServer(
  db: TestDatabase,
  env: Record<string, string> = {},
): Promise<RunningServer> {
  if (!existsSync(path.join(root, 'frontend', 'dist', 'index.html'))) {
    throw new Error(
      'frontend/dist is missing: `npm test` and `npm run test:e2e` build it; or run `npm run build`',
    );
  }
  // The server's own files (mails without SMTP), named after its port: removed when it stops.
  const dataDirOf = (port: number) => path.join(os.tmpdir(), `rr-e2e-data-${port}`);
  const service = await spawnService('all', (port) => ({
    DATABASE_URL: db.url,
    ADMIN_USERNAME: E2E_ADMIN.username,
    ADMIN_PASSWORD: E2E_ADMIN.password,
    SEED_DEMO_DATA: 'false',
    // The server's "today" is the tests' and the browser's (both use the machine's zone):
    // with Europe/Vienna on a UTC machine they disagree for an hour every night.
    TIME_ZONE: Intl.DateTimeFormat().resolvedOptions().timeZone,
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}/`,
    MAIL_INTERVAL_MS: '200',
    // A read waits this long for the browser's own write (stretched on a busy machine).
    READ_YOUR_WRITES_TIMEOUT_MS: String(budget(5000)),
    HOLIDAY_IMPORT_READ_TIMEOUT_MS: String(budget(30_000)),
    DATA_DIR: dataDirOf(port),
    ...env,
  }));
  const dataDir = dataDirOf(service.port);
  return {
    baseUrl: service.url,
    mailDir: path.join(dataDir, 'mail'),
    process: service.child,
    output: () => service.output(),
    stop: async () => {
      await service.kill('SIGTERM');
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** What a browser test file runs against: its own database, the server on it and a browser. */
export interface BrowserTest {
  server: RunningServer;
  browser: Browser;
  /** Closes the browser, stops the server and drops the database; a plain function, kept apart. */
  stop: () => Promise<void>;
}

/**
 * Starts a test database, the server on it with `env` (as `startServer`) and a browser. A step
 * that fails stops what started before it: a file whose start fails leaves nothing running.
 */
export async function startBrowserTest(env: Record<string, string> = {}): Promise<BrowserTest> {
  const db = await createTestDatabase();
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const stop = async () => {
    await browser?.close();
    await server?.stop();
    await db.drop();
  };
  try {
    server = await startServer(db, env);
    browser = await launchBrowser();
  } catch (err) {
    await stop();
    throw err;
  }
  return { server, browser, stop };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/**
 * A fresh browser context (own cookies and session storage) for a visitor or a staff member in
 * the language `lang`, optionally in another time zone than the machine's. Playwright's own waits (30 s for an action, a navigation or a locator)
 * are stretched by the run's measured slowness like every other budget of the tests.
 */
export async function newContext(
  browser: Browser,
  viewport: { width: number; height: number },
  lang: 'de' | 'en' = 'de',
  /** The device's time zone (default the machine's), e.g. 'UTC' beside a library in Vienna. */
  timezoneId?: string,
  /**
   * The visitor app's service worker (offline tickets) is blocked unless allowed: a test sees the
   * server's answers, not a copy the worker kept, and Playwright's `page.route` (which some tests
   * use to delay or change an answer) does not see what a worker answers.
   */
  serviceWorkers: 'allow' | 'block' = 'block',
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport,
    locale: lang === 'de' ? 'de-AT' : 'en-GB',
    ...(timezoneId ? { timezoneId } : {}),
    serviceWorkers,
  });
  context.setDefaultTimeout(budget(30_000));
  context.setDefaultNavigationTimeout(budget(30_000));
  return context;
}

/** What serveDocumentAs's init script uses of a page's globals. */
interface ServedPage<T> {
  rrServedAs?: T;
  location: { pathname: string };
  document: {
    readyState: string;
    documentElement: { lang: string };
    getElementById(id: string): { setAttribute(name: string, value: string): void } | null;
    addEventListener(type: 'readystatechange', listener: () => void): void;
  };
}

/**
 * From now on, every document the page opens (below `pathPrefix`, if given) is as if the server had
 * served it with `<html lang="{lang}">` and with `attributes` (plain values) on its root element:
 * the app reads both when its module starts. They are set when the parsed document turns
 * interactive, which comes before its module scripts run. A later call replaces an earlier one.
 * (A rewrite of the document's response through `page.route` did the same, but any route makes
 * Playwright intercept every request of the page and turn the browser's cache off: each load of
 * a staff screen cost 60 to 80 % more CPU in the browser and the test, and twice the time.)
 */
export async function serveDocumentAs(
  page: Page,
  lang: Lang,
  attributes: Readonly<Record<string, string>> = {},
  pathPrefix = '',
): Promise<void> {
  await page.addInitScript(
    (served) => {
      // The page's globals, of which this needs a few (the file is also type-checked without the
      // DOM's types, by a benchmark that imports it).
      const scope = globalThis as unknown as ServedPage<typeof served>;
      // Every init script runs as each document starts, in the order added: the last call's
      // choice is the one the first call's listener applies.
      const first = scope.rrServedAs === undefined;
      scope.rrServedAs = served;
      if (!first) return;
      scope.document.addEventListener('readystatechange', () => {
        const { document, location, rrServedAs: choice } = scope;
        if (document.readyState !== 'interactive' || !choice) return;
        const { pathname } = location;
        if (
          choice.pathPrefix &&
          pathname !== choice.pathPrefix &&
          !pathname.startsWith(`${choice.pathPrefix}/`)
        )
          return;
        document.documentElement.lang = choice.lang;
        const root = document.getElementById('root');
        for (const [name, value] of Object.entries(choice.attributes))
          root?.setAttribute(name, value);
      });
    },
    { lang, attributes, pathPrefix },
  );
}

/** A page in a fresh browser context (own cookies and session storage; axe needs a context page). */
export async function openPage(
  browser: Browser,
  viewport = { width: 1280, height: 900 },
): Promise<Page> {
  return (await newContext(browser, viewport)).newPage();
}

/**
 * Polls a read of the page until the expectation holds: the URL of a client-side
 * navigation changes before React renders the new state, so a single read can be early.
 */
export const eventually = <T>(read: () => Promise<T>) =>
  expect.poll(read, { timeout: budget(10_000) });

/**
 * The WCAG 2.0/2.1/2.2 A and AA violations axe finds on the page as it is now, one line each.
 * Legacy mode runs axe in the page in one go; the default (partial runs) opens a second page per
 * scan to merge the frames' results, which the app's pages (no frames) do not need and which
 * doubles a scan's cost. Only violations carry their nodes: the passes of a screen (every text's
 * contrast) would otherwise travel to the test as a large result it never reads.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // options() replaces every option set before it: it comes before withTags.
  const results = await new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .setLegacyMode(true)
    .analyze();
  return results.violations.map(
    (v) =>
      `${v.id} (${v.impact ?? ''}): ${v.help} -> ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(' | ')}`,
  );
}

/** Fails on any WCAG 2.0/2.1/2.2 A or AA violation axe finds on the page as it is now. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  expect(await axeViolations(page), `axe on ${label}`).toEqual([]);
}

/** Collects console errors and failed requests of a page, to assert a clean run. */
export function watchPage(page: Page): { errors: string[] } {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return { errors };
}

/**
 * Does `act` until `shown` shows within `waitMs` of it, for at most `timeoutMs`: what a person
 * does again when the screen did not answer.
 */
async function actUntilVisible(
  act: () => Promise<unknown>,
  shown: Locator,
  waitMs: number,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await act();
    try {
      await shown.waitFor({ timeout: waitMs });
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
  }
}

/**
 * Presses a key on an element until what it opens shows: a refetch may render the element anew
 * between Playwright's focus and its key on a busy machine, and the key then goes to the page.
 * Presses again only after the last press had a while to show its effect.
 */
export const pressUntilVisible = (
  target: Locator,
  key: string,
  shown: Locator,
  timeoutMs = budget(30_000),
): Promise<void> => actUntilVisible(() => target.press(key), shown, budget(3_000), timeoutMs);

/**
 * A page of another client than the one that wrote has not seen the write's position, so its
 * read may come a moment before the read model has caught up (eventual consistency between
 * clients). Reloads until the change shows, as a person would.
 */
export const reloadUntilVisible = (
  page: Page,
  locator: Locator,
  timeoutMs = budget(30_000),
): Promise<void> => actUntilVisible(() => page.reload(), locator, budget(2_000), timeoutMs);
