/**
 * Runs a background role of the `all` process (projector, notifier) on a thread of its own, so its
 * CPU work uses another core instead of sharing one event loop with every HTTP request. The thread
 * builds what it needs from the same configuration (and may be handed a channel, such as one to
 * the event store's writer thread); a thread that dies is restarted.
 */
import { type MessagePort, parentPort, Worker, workerData } from 'node:worker_threads';
import { nameThisThread } from '../adapters/os/linux-threads';
import { startModuleThread } from '../adapters/os/module-thread';
import type { Logger } from '../application/ports/logger';
import type { GatewayConfig } from '../config';

type Message = { type: 'ready' } | { type: 'error'; error: string } | { type: 'reading'; reading: unknown };

export interface WorkerThread {
  stop(): Promise<void>;
  /** Hands the thread a message for its `onMessage` handlers; dropped while it (re)starts. */
  send(message: { type: string }): void;
}

export interface WorkerThreadOptions {
  /** A channel handed to the thread at every (re)start, e.g. to the event store's writer thread. */
  port?: () => MessagePort | null;
  /** The event store writer's commit signal (Gateway.commitSignal), shared with the thread. */
  commitSignal?: SharedArrayBuffer | null;
  /** A counter the thread bumps to tell the starter its work moved on (the projector: a batch applied). */
  appliedSignal?: SharedArrayBuffer | null;
  /** Told what the thread reports with `post` (readings for the process's metrics). */
  onReading?: (reading: unknown) => void;
}

/** What the thread's side gets besides the configuration. */
export interface ThreadContext {
  /** The channel given by the starting thread's `port`, if any. */
  port: MessagePort | null;
  /** The starting thread's `commitSignal`, if any. */
  commitSignal: SharedArrayBuffer | null;
  /** The starting thread's `appliedSignal`, if any. */
  appliedSignal: SharedArrayBuffer | null;
  /** Reports a reading to the starting thread's `onReading`. */
  post(reading: unknown): void;
  /** Hears what the starting thread `send`s, once the thread is ready. */
  onMessage(handler: (message: { type: string }) => void): void;
}

/** Starts `file` (a module that calls `runAsWorkerThread`) on a thread; resolves once it is ready. */
export async function startWorkerThread(
  name: string,
  file: string,
  config: GatewayConfig,
  logger: Logger,
  options: WorkerThreadOptions = {},
): Promise<WorkerThread> {
  let stopping = false;
  let ready = false;
  let worker: Worker;
  const spawn = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const port = options.port?.() ?? null;
      const data = { role: name, config, port, commitSignal: options.commitSignal ?? null, appliedSignal: options.appliedSignal ?? null };
      worker = startModuleThread(file, { workerData: data, transferList: port ? [port] : [] });
      ready = false;
      worker.on('message', (message: Message) => {
        if (message.type === 'ready') {
          ready = true;
          resolve();
        } else if (message.type === 'reading') options.onReading?.(message.reading);
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
    send(message) {
      if (ready && !stopping) worker.postMessage(message);
    },
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
  start: (config: GatewayConfig, report: (error: unknown) => void, context: ThreadContext) => Promise<() => Promise<void>>,
): void {
  const data = workerData as {
    role?: string;
    config?: GatewayConfig;
    port?: MessagePort | null;
    commitSignal?: SharedArrayBuffer | null;
    appliedSignal?: SharedArrayBuffer | null;
  } | null;
  if (!parentPort || data?.role !== name || !data.config) return;
  nameThisThread(name);
  const port = parentPort;
  const report = (error: unknown) => port.postMessage({ type: 'error', error: String(error) } satisfies Message);
  const post = (reading: unknown) => port.postMessage({ type: 'reading', reading } satisfies Message);
  const handlers: Array<(message: { type: string }) => void> = [];
  const onMessage = (handler: (message: { type: string }) => void) => void handlers.push(handler);
  const context = { port: data.port ?? null, commitSignal: data.commitSignal ?? null, appliedSignal: data.appliedSignal ?? null, post, onMessage };
  start(data.config, report, context)
    .then((stop) => {
      port.on('message', (message: { type: string }) => {
        if (message.type !== 'stop') {
          for (const handler of handlers) handler(message);
          return;
        }
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
