/**
 * `parley run --workers N`: N processes serving one port (node:cluster), for a machine with more cores
 * than one event loop can use. Every worker serves any request, so they must share every piece of
 * state: conversations in a SQL tracker store, turns serialised by a PostgreSQL or Redis lock store,
 * and A2A tasks with the tracker store. The primary checks that first, trains the model once (the
 * workers then load it), forks the workers, replaces one that dies, and on SIGTERM/SIGINT stops them
 * all, each finishing its turns in flight.
 */
import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import type { Logger } from '../runtime/logger.js';
import { MEMORY_TYPES } from '../stores/factory.js';

/** a worker that dies this soon after its start is not replaced at once (a crash loop) */
const RESTART_DELAY_MS = 1_000;

/** Why N processes would not share their state; empty when they would. */
export function workerProblems(endpoints: Readonly<Record<string, unknown>>): string[] {
  const problems: string[] = [];
  const typeOf = (block: unknown) =>
    typeof block === 'object' && block !== null
      ? String((block as { type?: unknown }).type ?? '').toLowerCase()
      : undefined;
  const tracker = typeOf(endpoints['tracker_store']);
  if (tracker !== undefined && MEMORY_TYPES.has(tracker))
    problems.push(
      'tracker_store is in memory: each worker would keep its own conversations; use type: sql (the ' +
        'default SQLite file, or PostgreSQL).',
    );
  const lock = typeOf(endpoints['lock_store']);
  if (lock === undefined || MEMORY_TYPES.has(lock))
    problems.push(
      'lock_store is in memory (the default): two workers could run turns of one conversation at once; ' +
        'use type: postgresql or redis.',
    );
  const a2a = endpoints['a2a_server'];
  if (typeof a2a === 'object' && a2a !== null) {
    const { enabled, task_store: taskStore } = a2a as { enabled?: unknown; task_store?: unknown };
    if (enabled !== false && enabled !== 'false' && taskStore === 'in_memory')
      problems.push(
        'a2a_server.task_store is in_memory: keep A2A tasks with the tracker store (tracker_store).',
      );
  }
  return problems;
}

export interface WorkerPoolOptions {
  readonly count: number;
  readonly logger: Logger;
  readonly signals: NodeJS.EventEmitter;
  /** told the address once the first worker listens */
  readonly onListening: (address: { address: string; port: number }) => void;
}

/** Forks the workers and supervises them until a signal stops them all; resolves with the exit code. */
export function runWorkerPool(options: WorkerPoolOptions): Promise<number> {
  const { count, logger, signals } = options;
  let stopping = false;
  let announced = false;
  const live = new Set<Worker>();
  const fork = (index: number): void => {
    const worker = cluster.fork({ PARLEY_WORKER_INDEX: String(index) });
    const startedAt = Date.now();
    live.add(worker);
    worker.on('listening', (address) => {
      logger.info({ worker: index, pid: worker.process.pid, port: address.port }, 'worker listening');
      if (announced) return;
      announced = true;
      options.onListening({ address: address.address ?? '0.0.0.0', port: address.port });
    });
    worker.on('exit', (code, signal) => {
      live.delete(worker);
      if (stopping) return;
      logger.error({ worker: index, pid: worker.process.pid, code, signal }, 'worker died: starting another');
      const delay = Date.now() - startedAt < RESTART_DELAY_MS ? RESTART_DELAY_MS : 0;
      setTimeout(() => {
        if (!stopping) fork(index);
      }, delay).unref();
    });
  };
  for (let index = 0; index < count; index += 1) fork(index);
  return new Promise<number>((done) => {
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal, workers: live.size }, 'shutting down: each worker finishes its turns in flight');
      if (live.size === 0) done(0);
      for (const worker of [...live]) {
        worker.once('exit', () => {
          if (live.size === 0) done(0);
        });
        worker.process.kill('SIGTERM');
      }
    };
    signals.once('SIGTERM', () => stop('SIGTERM'));
    signals.once('SIGINT', () => stop('SIGINT'));
  });
}

export function isWorker(): boolean {
  return cluster.isWorker;
}

/** A worker whose server has stopped lets go of the primary's channel, which would keep it alive. */
export function leaveCluster(): void {
  if (cluster.isWorker) cluster.worker?.disconnect();
}
