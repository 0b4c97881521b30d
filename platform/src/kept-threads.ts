import { Worker } from 'node:worker_threads';

/**
 * Worker threads for work that must never run on the event loop (reading a calendar file,
 * replaying a room's history), kept between runs: starting a thread from source registers tsx's
 * loader and loads its modules (about 1.6 s of CPU), which costs more than most runs. A thread
 * answers one message per run; a run that is stopped (its time, its heap, its caller) ends the
 * thread, and the next run starts another. An idle thread is ended after `keepMs` and never keeps
 * the process alive; a pool that keeps none ends each thread after its run.
 */
export interface ThreadRun {
  /** The message the thread's module receives (`parentPort.on('message')`). */
  message: unknown;
  /** Buffers of the message handed over to the thread instead of copied. */
  transfer?: ArrayBuffer[];
  /** A run that takes longer is stopped: ThreadStopped('time'). */
  timeoutMs: number;
  /** The thread's heap: a run that needs more is stopped (ThreadStopped('memory')). */
  heapMb: number;
  /** How long the thread is kept for the next run after this one (default: the pool's). */
  keepMs?: number;
  /** Stops the run (the client gave up): ThreadStopped('aborted'). */
  signal?: AbortSignal;
}

export class ThreadStopped extends Error {
  constructor(
    readonly reason: 'time' | 'memory' | 'aborted' | 'failed',
    cause?: unknown,
  ) {
    super(`the worker thread was stopped (${reason})`, cause === undefined ? {} : { cause });
    this.name = 'ThreadStopped';
  }
}

/** The URL of a worker module beside `from` (`import.meta.url`): compiled `.js`, else `.ts`. */
export function workerModule(from: string, name: string): string {
  return new URL(`${name}${from.endsWith('.js') ? '.js' : '.ts'}`, from).href;
}

interface Thread {
  worker: Worker;
  heapMb: number;
  /** Ends the thread when no run takes it in time. */
  ending: NodeJS.Timeout | null;
}

export class KeptThreads {
  private readonly idle: Thread[] = [];
  private startedCount = 0;

  constructor(
    /** The worker module's URL (`workerModule`). */
    private readonly module: string,
    /** Threads kept idle at most (one for each run that may run at once). */
    private readonly keep: number,
    private readonly keepMs = 60_000,
  ) {}

  /** How many threads this pool has started (the tests see one serve several runs). */
  get started(): number {
    return this.startedCount;
  }

  /** How many threads are kept idle for the next runs. */
  get kept(): number {
    return this.idle.length;
  }

  /** Sends one run to a kept thread or a new one, and answers the thread's one reply. */
  run<A>({ message, transfer, timeoutMs, heapMb, keepMs, signal }: ThreadRun): Promise<A> {
    if (signal?.aborted) return Promise.reject(new ThreadStopped('aborted'));
    const thread = this.take(heapMb);
    const { worker } = thread;
    return new Promise<A>((resolve, reject) => {
      const detach = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const stop = (reason: ThreadStopped['reason'], cause?: unknown) => {
        detach();
        void worker.terminate();
        reject(new ThreadStopped(reason, cause));
      };
      const onMessage = (answer: A) => {
        detach();
        this.putBack(thread, keepMs ?? this.keepMs);
        resolve(answer);
      };
      const onError = (err: Error & { code?: string }) =>
        stop(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'failed', err);
      const onExit = () => stop('failed');
      const onAbort = () => stop('aborted');
      const timer = setTimeout(() => stop('time'), timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      signal?.addEventListener('abort', onAbort);
      // A run under way keeps the process alive; a new thread's start is part of its time.
      worker.ref();
      worker.postMessage(message, transfer);
    });
  }

  private take(heapMb: number): Thread {
    const at = this.idle.findIndex((t) => t.heapMb === heapMb);
    if (at >= 0) {
      const [thread] = this.idle.splice(at, 1);
      if (thread!.ending) clearTimeout(thread!.ending);
      thread!.ending = null;
      return thread!;
    }
    const worker = new Worker(threadBootstrap(this.module), {
      eval: true,
      execArgv: threadExecArgv(this.module),
      resourceLimits: { maxOldGenerationSizeMb: heapMb },
      stdout: false,
      stderr: false,
    });
    this.startedCount += 1;
    const thread: Thread = { worker, heapMb, ending: null };
    // Between runs nothing else listens: a failing idle thread is ended, not the process, and
    // one that exits is let go (a run sent to it would wait out its time).
    worker.on('error', () => this.end(thread));
    worker.on('exit', () => this.end(thread));
    return thread;
  }

  private putBack(thread: Thread, keepMs: number) {
    thread.worker.unref();
    this.idle.push(thread);
    // Beyond the threads to keep, the longest idle is ended.
    while (this.idle.length > this.keep) this.end(this.idle[0]!);
    if (!this.idle.includes(thread)) return;
    thread.ending = setTimeout(() => this.end(thread), keepMs);
    thread.ending.unref();
  }

  private end(thread: Thread) {
    const at = this.idle.indexOf(thread);
    if (at >= 0) this.idle.splice(at, 1);
    if (thread.ending) clearTimeout(thread.ending);
    void thread.worker.terminate();
  }
}

/**
 * An eval'd CommonJS bootstrap of a worker module (`workerModule`): from source it registers tsx's
 * loader first, so the module runs alike under `node --import tsx`, vitest and the benchmarks; the
 * compiled release imports the compiled module.
 */
function threadBootstrap(module: string): string {
  return module.endsWith('.js')
    ? `import(${JSON.stringify(module)});`
    : `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(module)}); });`;
}

/** The compiled worker resolves the @rr packages to their compiled output as the server does. */
const threadExecArgv = (module: string): string[] =>
  module.endsWith('.js') ? ['--conditions=rr-compiled'] : [];
