import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Where Debian's libfaketime lives (its folder names the architecture, e.g.
 * /usr/lib/x86_64-linux-gnu/faketime).
 */
function libfaketime(): string {
  const candidates = [
    ...readdirSync('/usr/lib', { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join('/usr/lib', entry.name, 'faketime', 'libfaketime.so.1')),
    '/usr/lib/faketime/libfaketime.so.1',
  ];
  const found = candidates.find((file) => existsSync(file));
  if (found === undefined)
    throw new Error('libfaketime is not installed (apt-get install faketime)');
  return found;
}

/**
 * The environment that runs a process `offset` ahead (libfaketime's format, e.g. '+10d'), by
 * preloading the library itself rather than through the `faketime` program: the program keeps a
 * semaphore named after its process id, which a killed run leaves behind, and a later program of
 * the same id then refuses to start ("sem_open: File exists").
 */
export function fakeTimeEnv(offset: string): Record<string, string> {
  return { LD_PRELOAD: libfaketime(), FAKETIME: offset };
}

/**
 * The environment that runs a process at an offset read from `file` (libfaketime's format, e.g.
 * '+3600' seconds), re-read every second, so a test moves the process's clock while it runs. Only
 * the wall clock moves: the monotonic clock, which times the process's timers, runs as before.
 */
export function fakeTimeFromFile(file: string): Record<string, string> {
  return {
    LD_PRELOAD: libfaketime(),
    FAKETIME_TIMESTAMP_FILE: file,
    FAKETIME_CACHE_DURATION: '1',
    FAKETIME_DONT_FAKE_MONOTONIC: '1',
  };
}
