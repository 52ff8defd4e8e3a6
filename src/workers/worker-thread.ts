/**
 * Runs a background role of the `all` process (projector, notifier) on a thread of its own, so its
 * CPU work uses another core instead of sharing one event loop with every HTTP request. The thread
 * builds what it needs from the same configuration; a thread that dies is restarted.
 */
import { parentPort, Worker, workerData } from 'node:worker_threads';
import type { Logger } from '../application/ports/logger';
import type { GatewayConfig } from '../config';

type Message = { type: 'ready' } | { type: 'error'; error: string };

export interface WorkerThread {
  stop(): Promise<void>;
}

/** Starts `file` (a module that calls `runAsWorkerThread`) on a thread; resolves once it is ready. */
export async function startWorkerThread(name: string, file: string, config: GatewayConfig, logger: Logger): Promise<WorkerThread> {
  let stopping = false;
  let worker: Worker;
  const spawn = (): Promise<void> =>
    new Promise((resolve, reject) => {
      // A TypeScript module (the sources, under tsx) needs the same loader on the thread; compiled JavaScript does not.
      const bootstrap = `${file.endsWith('.ts') ? "require('tsx/cjs'); " : ''}require(${JSON.stringify(file)});`;
      worker = new Worker(bootstrap, { eval: true, workerData: { role: name, config } });
      worker.on('message', (message: Message) => {
        if (message.type === 'ready') resolve();
        else logger.error(`${name} failed, it will recover`, { error: message.error });
      });
      worker.once('error', (error) => {
        logger.error(`${name} thread crashed`, { error: String(error) });
        reject(error);
      });
      worker.once('exit', (code) => {
        if (stopping) return;
        logger.error(`${name} thread exited, restarting`, { code });
        setTimeout(() => void spawn().catch(() => undefined), 1000).unref();
      });
    });
  await spawn();
  return {
    async stop() {
      stopping = true;
      worker.postMessage({ type: 'stop' });
      await new Promise((resolve) => worker.once('exit', resolve));
    },
  };
}

/**
 * The thread's side: when this thread was started for `name`, runs `start` with the configuration
 * (and a way to report recovered failures to the main thread's log), reports ready, and calls the
 * returned stop function when asked to stop.
 */
export function runAsWorkerThread(
  name: string,
  start: (config: GatewayConfig, report: (error: unknown) => void) => Promise<() => Promise<void>>,
): void {
  const data = workerData as { role?: string; config?: GatewayConfig } | null;
  if (!parentPort || data?.role !== name || !data.config) return;
  const port = parentPort;
  const report = (error: unknown) => port.postMessage({ type: 'error', error: String(error) } satisfies Message);
  start(data.config, report)
    .then((stop) => {
      port.on('message', (message: { type: string }) => {
        if (message.type !== 'stop') return;
        void stop()
          .catch(report)
          .finally(() => process.exit(0));
      });
      port.postMessage({ type: 'ready' } satisfies Message);
    })
    .catch((error) => {
      report(error);
      process.exit(1);
    });
}
