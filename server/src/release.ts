import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Clock, Pool } from '@rr/platform';

/** Which release a process runs: shown by /api/healthz and the metric rr_build_info. */
export interface Release {
  version: string;
  commit: string;
}

let cached: Release | null = null;

/**
 * The compiled release reads server/dist/build-info.json (written by `npm run build:server`);
 * from source, the version is package.json's and the commit git's. RR_COMMIT overrides the
 * commit (an image built without .git passes it as a build argument).
 */
export function currentRelease(): Release {
  if (cached) return cached;
  const here = import.meta.dirname;
  const compiled = import.meta.url.endsWith('.js');
  const info = path.resolve(here, '..', 'build-info.json');
  let release: Release = { version: 'unknown', commit: 'unknown' };
  if (compiled && existsSync(info)) {
    release = JSON.parse(readFileSync(info, 'utf8')) as Release;
  } else {
    const root = path.resolve(here, '..', '..');
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      version?: string;
    };
    release.version = pkg.version ?? 'unknown';
    try {
      release.commit = execFileSync('git', ['rev-parse', 'HEAD'], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'ignore'],
      })
        .toString()
        .trim();
    } catch {
      // not a git checkout
    }
  }
  if (process.env.RR_COMMIT) release = { ...release, commit: process.env.RR_COMMIT };
  cached = release;
  return release;
}

/** Records that a process of this release started on the database (table release_history). */
export async function recordRelease(pool: Pool, clock: Clock): Promise<void> {
  const { version, commit } = currentRelease();
  await pool.query(
    `INSERT INTO release_history (version, commit, first_started_at, last_started_at, starts)
     VALUES ($1, $2, $3, $3, 1)
     ON CONFLICT (version, commit) DO UPDATE
       SET last_started_at = EXCLUDED.last_started_at, starts = release_history.starts + 1`,
    [version, commit, clock.now()],
  );
}
