import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The axe sweeps (each file walks every screen of one side of the app, the longest files) and the
 * browser smoke test (the longest file of `npm test`).
 */
const SWEEP = /[\\/]tests[\\/]e2e[\\/](axe-[^\\/]*\.e2e|[^\\/]*\.smoke)\.test\.ts$/;

/**
 * Vitest's order (failed first, then the longest of the last run), with the axe sweeps and the
 * smoke test ahead of all others. On a fresh clone vitest knows no durations and orders by file
 * size, which would start the sweeps, small files that call a shared walk, last: the run would
 * end on them alone.
 */
export class SweepsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    return [
      ...ordered.filter((f) => SWEEP.test(f.moduleId)),
      ...ordered.filter((f) => !SWEEP.test(f.moduleId)),
    ];
  }
}
