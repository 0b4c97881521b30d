/**
 * A worker module for the tests of KeptThreads: answers each message with what it was sent, and
 * when told, ends itself a moment after its answer (an idle thread that exits or fails on its own).
 */
import { parentPort } from 'node:worker_threads';

export interface TestRun {
  echo: string;
  afterwards?: 'exit' | 'throw';
}

parentPort?.on('message', ({ echo, afterwards }: TestRun) => {
  parentPort?.postMessage(echo);
  if (afterwards === 'exit') setTimeout(() => process.exit(0), 20);
  if (afterwards === 'throw')
    setTimeout(() => {
      throw new Error('the idle thread failed');
    }, 20);
});
