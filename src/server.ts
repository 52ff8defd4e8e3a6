/**
 * Process roles. `all` (what `npm start` runs) is the embedded default: API, projector and workers in
 * one process. `api`, `projector`, `notifier` and `scheduler` run the same code alone, against
 * PostgreSQL (or EventStoreDB) shared by several processes.
 */
import fs from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { buildGateway, type Gateway } from './composition';
import { type GatewayConfig, projectorGatherMsOf } from './config';
import type { MerchantCredentials } from './application/merchant-service';
import { startProjectorThread } from './workers/projector-thread';
import { startBackgroundThreads } from './workers/background-thread';
import { startProjectingWorkers, startSchedulerWorker } from './workers/role-workers';
import type { Notifier } from './application/callbacks/notifier';
import type { CountsSnapshot } from './adapters/metrics/gateway-metrics';
import { checkLogAtStart } from './application/audit/start-check';
import { describeBroken, type AuditReport } from './application/audit/verifier';
import { startMetricsListener } from './api/metrics/metrics-listener';

export type Role = 'all' | 'api' | 'projector' | 'notifier' | 'scheduler';

export interface RunningGateway {
  gateway: Gateway;
  server: Server | null;
  baseUrl: string;
  demoMerchant: MerchantCredentials | null;
  /** Present in the `notifier` role; in `all` the notifier runs on a thread of its own. */
  notifier: Notifier | null;
  /** What the start-time check of the event log found (a break only when it was allowed). */
  logCheck: AuditReport;
  stop(): Promise<void>;
}

export interface RunOptions {
  /** Start even when the event log fails verification (forensics); see docs/architecture.md. */
  allowBrokenLog?: boolean;
}

/** The answer of the API's port while the rest of the gateway starts. */
function answerStarting(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '1' });
  res.end('{"status":"starting"}\n');
}

/** A start refused before anything was changed, for a reason the operator fixes as the message says. */
export class StartRefusedError extends Error {}

/**
 * Binds the API's port, answering 503 until the gateway is ready. First thing of a start: a port that
 * cannot be had refuses the start before the data directory, the vault key or a demo merchant are made.
 */
async function bindPort(host: string, port: number, names: { host: string; port: string }): Promise<Server> {
  const server = createServer(answerStarting);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
  } catch (error) {
    const where = `port ${port} on ${host} (${names.port})`;
    const otherPort = `start on another port with ${names.port}=${port === 8080 ? 8081 : 8080}`;
    switch ((error as NodeJS.ErrnoException).code) {
      case 'EADDRINUSE':
        throw new StartRefusedError(`Cannot start: ${where} is in use (is the gateway already running?); stop what listens there, or ${otherPort}`);
      case 'EACCES':
        throw new StartRefusedError(`Cannot start: ${where} needs privileges this process does not have; ${otherPort} (above 1023)`);
      case 'EADDRNOTAVAIL':
      case 'ENOTFOUND':
        throw new StartRefusedError(`Cannot start: ${names.host}=${host} is not an address of this machine; set ${names.host} to one of its addresses, or 0.0.0.0 for all`);
      default:
        throw error;
    }
  }
  return server;
}

export async function runGateway(config: GatewayConfig, role: Role, options: RunOptions = {}): Promise<RunningGateway> {
  const listener = role === 'all' || role === 'api' ? await bindPort(config.host, config.port, { host: 'HOST', port: 'PORT' }) : null;
  try {
    if (config.metrics.port !== null) {
      // Only tried here (the metrics listener binds it once the gateway is built), for the same reason.
      const probe = await bindPort(config.metrics.host, config.metrics.port, { host: 'METRICS_HOST', port: 'METRICS_PORT' });
      await new Promise((resolve) => probe.close(resolve));
    }
    return await startOn(listener, withBoundPort(config, listener), role, options);
  } catch (error) {
    if (listener) await new Promise((resolve) => listener.close(resolve));
    throw error;
  }
}

/**
 * PORT=0 lets the system choose the port. A public base URL naming port 0 (the default one, without
 * PUBLIC_BASE_URL) reaches nobody: every URL the gateway hands out (3-D Secure and redirect pages,
 * Checkout, return URLs) names the port it was given instead.
 */
function withBoundPort(config: GatewayConfig, listener: Server | null): GatewayConfig {
  const address = listener?.address();
  if (!address || typeof address !== 'object') return config;
  const url = new URL(config.publicBaseUrl);
  if (url.port !== '0') return config;
  url.port = String(address.port);
  return { ...config, port: address.port, publicBaseUrl: url.toString().replace(/\/+$/, '') };
}

type Stop = () => Promise<void> | void;

async function startOn(listener: Server | null, config: GatewayConfig, role: Role, options: RunOptions): Promise<RunningGateway> {
  // In `all`, projections run on a thread of their own (same process), off the HTTP event loop.
  const gateway = await buildGateway(config, {
    withProjector: role === 'projector',
    writerThread: role !== 'projector',
    projectorGatherMs: role === 'projector' ? projectorGatherMsOf(config, 'process') : 0,
    processMetrics: true,
  });
  const logCheck = await checkLogOrClose(gateway, config, options);
  const stops: Stop[] = [];
  const notifier = await startRoleWork(gateway, config, role, stops);
  const stopMetrics = await serveMetrics(gateway, config.metrics);
  if (stopMetrics) stops.push(stopMetrics);
  const demoMerchant = listener && role === 'all' && config.environment === 'sandbox' ? await ensureDemoMerchant(gateway) : null;
  const server = listener ? serveApi(listener, gateway) : null;
  return {
    gateway,
    server,
    // withBoundPort already named the bound port in it.
    baseUrl: config.publicBaseUrl,
    demoMerchant,
    notifier,
    logCheck,
    async stop() {
      if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const stop of stops) await stop();
      await gateway.close();
    },
  };
}

/** Checks the event log before anything is served, projected, sent or scheduled from it. */
async function checkLogOrClose(gateway: Gateway, config: GatewayConfig, options: RunOptions): Promise<AuditReport> {
  let logCheck: AuditReport;
  try {
    logCheck = await checkLogAtStart(gateway.rawStore, {
      allowUnchainedHistory: config.eventStore === 'eventstoredb',
      allowBrokenLog: options.allowBrokenLog ?? false,
    });
  } catch (error) {
    await gateway.close();
    throw error;
  }
  if (!logCheck.ok) gateway.logger.error('started on an event log that failed verification', { broken: describeBroken(logCheck.broken!) });
  return logCheck;
}

/** Starts what the role runs beside its API: projections, workers, schedules, callbacks. Returns the notifier of the `notifier` role. */
async function startRoleWork(gateway: Gateway, config: GatewayConfig, role: Role, stops: Stop[]): Promise<Notifier | null> {
  if (role === 'all') {
    const thread = await startProjectorThread(config, gateway.logger, gateway.commitSignal());
    gateway.readModels.followProjectorElsewhere(thread);
    stops.push(() => thread.stop());
  }
  if (gateway.projector) {
    await gateway.projector.start();
    await gateway.projector.catchUp();
  }
  if (role === 'projector') stops.push(...startProjectingWorkers(gateway, config));
  // Every sandbox process follows the test clock, whichever process moves it.
  gateway.testClock.follow();
  if (role === 'scheduler') stops.push(startSchedulerWorker(gateway, config));
  if (role === 'all') stops.push(...(await startThreadsBesideApi(gateway, config)));
  if (role !== 'notifier') return null;
  // Stopped by gateway.close(), which every role runs last.
  await gateway.notifier.start();
  return gateway.notifier;
}

/**
 * Callbacks on a thread of their own, schedules and the periodic workers on another, off the one
 * that answers requests; their appends go through this thread's writer (workers/background-thread.ts).
 */
async function startThreadsBesideApi(gateway: Gateway, config: GatewayConfig): Promise<Stop[]> {
  const counts = new Map<string, CountsSnapshot>();
  const threads = await startBackgroundThreads(config, gateway.logger, {
    writerPort: () => gateway.openWriterPort(),
    commitSignal: gateway.commitSignal(),
    onBlockedUrls: (count) => gateway.readBlockedUrlsFrom(() => count),
    onCounts: (thread, snapshot) => counts.set(thread, snapshot),
  });
  for (const thread of ['notifier', 'workers']) gateway.metrics.addCountsFrom(() => counts.get(thread) ?? null);
  return threads.map((thread) => () => thread.stop());
}

/** Every role serves its own metrics on METRICS_PORT when it is set (docs/operations.md); null when it is not. */
async function serveMetrics(gateway: Gateway, { host, port, token }: GatewayConfig['metrics']): Promise<Stop | null> {
  if (port === null) return null;
  const metricsServer = await startMetricsListener({
    host,
    port,
    metrics: gateway.metrics,
    token,
    onError: (error) => gateway.logger.error('metrics could not be collected', { error: String(error) }),
  });
  return () => new Promise<void>((resolve) => metricsServer.close(() => resolve()));
}

/** Hands the bound port from the "starting" answer to the gateway's API. */
function serveApi(listener: Server, gateway: Gateway): Server {
  listener.off('request', answerStarting);
  listener.on('request', gateway.app.callback());
  // Keep-alive longer than typical load balancers' idle timeout, so they close first.
  listener.keepAliveTimeout = 65_000;
  return listener;
}

/** The first start of an empty sandbox creates a demo merchant so a newcomer can pay right away. */
async function ensureDemoMerchant(gateway: Gateway): Promise<MerchantCredentials | null> {
  const existing = await gateway.merchants.list();
  if (existing.length > 0) return null;
  const credentials = await gateway.merchants.register({ name: 'Demo merchant' });
  const file = path.join(gateway.config.dataDir, 'demo-merchant.json');
  fs.writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return credentials;
}
