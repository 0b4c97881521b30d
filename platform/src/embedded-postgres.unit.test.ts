import { mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeOrphanStages } from './embedded-postgres.ts';

let tmp: string;
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('staged embedded-postgres packages', () => {
  it('removes a stage whose checkout is gone and keeps live and unfinished ones', async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'rr-stage-test-'));
    const checkout = path.join(tmp, 'checkout-pg');
    await mkdir(checkout);
    const stage = async (name: string, target: string | null) => {
      await mkdir(path.join(tmp, name, 'node_modules'), { recursive: true });
      if (target) await symlink(target, path.join(tmp, name, 'node_modules', 'pg'));
    };
    await stage('rr-embedded-postgres-17-live', checkout);
    await stage('rr-embedded-postgres-17-gone', path.join(tmp, 'deleted-checkout', 'pg'));
    await stage('rr-embedded-postgres-17-unfinished', null);
    await stage('something-else', path.join(tmp, 'deleted-checkout', 'pg'));

    await removeOrphanStages(tmp);

    expect((await readdir(tmp)).sort()).toEqual([
      'checkout-pg',
      'rr-embedded-postgres-17-live',
      'rr-embedded-postgres-17-unfinished',
      'something-else',
    ]);
  });
});
