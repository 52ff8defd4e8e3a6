/**
 * The composition root: builds the gateway's parts from configuration. `main` (one process that
 * runs everything), the separate-process roles and the tests all build through here, so they run
 * the same code. Each bounded context wires its own ports in a module of src/composition/.
 */
import { SqliteEventStore } from './adapters/event-store/sqlite-event-store';
import { preparePrivateDataDir } from './adapters/files/private-data-dir';
import { createJsonLogger } from './adapters/logging/json-logger';
import { deriveAdminToken } from './api/admin/admin-auth';
import type { GatewayConfig } from './config';
import { wireCallbacks } from './composition/callbacks';
import { wireCardData } from './composition/card-data';
import { wireCheckout } from './composition/checkout';
import { wireClocks, type Clocks } from './composition/clocks';
import { wireConnectors } from './composition/connectors';
import type { Core } from './composition/core';
import { wireEventLog } from './composition/event-log';
import type { BuildOptions, Gateway, GatewayHttpParts } from './composition/gateway';
import { auditSignerFor, loadVaultKey } from './composition/keys';
import { wireMerchants } from './composition/merchants';
import { wireMetrics } from './composition/metrics';
import { wirePayments } from './composition/payments';
import { wirePayouts } from './composition/payouts';
import { wireReadModels } from './composition/read-models';
import { wireSchedules } from './composition/schedules';
import { wireWallets } from './composition/wallets';

export type { BuildOptions, Gateway } from './composition/gateway';

/** What every context is wired from, built first: the log, clocks, metrics, event store, read models and keys. */
async function wireFoundation(config: GatewayConfig, options: BuildOptions) {
  preparePrivateDataDir(config.dataDir);
  const logger = options.logger ?? createJsonLogger(config.logLevel);
  const clocks = wireClocks(config, options);
  const { metrics, sources } = wireMetrics(options, logger, clocks.clock);
  const eventLog = await wireEventLog(config, options, metrics);
  const reads = await wireReadModels(config, options, eventLog.store, logger);
  const key = loadVaultKey(config);
  const core: Core = { config, options, logger, clock: clocks.clock, metrics, store: eventLog.store, readDb: reads.readDb, readModels: reads.readModels, key };
  return { core, clocks, sources, eventLog, reads, auditSigner: auditSignerFor(config, key) };
}

/** The bounded contexts, each wiring its own ports, in the order they depend on each other. */
async function wireContexts(core: Core, clocks: Clocks) {
  const cards = await wireCardData(core);
  const connectors = wireConnectors(core);
  const { merchants, notificationUrls } = wireMerchants(core, connectors.registry);
  const wallets = wireWallets(core);
  const { payments, sandboxApm } = wirePayments(core, connectors, cards.vault, wallets);
  const payouts = wirePayouts(core, connectors.registry);
  const { schedules, scheduler, testClock } = await wireSchedules(core, clocks, payments);
  const checkout = wireCheckout(core, { payments, merchants, schedules, cards });
  const callbacks = wireCallbacks(core, clocks, merchants);
  const services = { merchants, wallets, payments, sandboxApm, payouts, schedules, scheduler, testClock, checkout, notifier: callbacks.notifier };
  return { cards, connectors, notificationUrls, callbacks, services };
}

export async function buildGateway(config: GatewayConfig, options: BuildOptions): Promise<Gateway> {
  const { core, clocks, sources, eventLog, reads, auditSigner } = await wireFoundation(config, options);
  const { cards, connectors, notificationUrls, callbacks, services } = await wireContexts(core, clocks);
  const { store, rawStore, adapter } = eventLog;
  const { readDb, reportDb, readModels, projector } = reads;
  Object.assign(sources, { rawStore, readModels, callbacks: reads.callbackOverview, notifier: services.notifier });
  const gateway: Omit<Gateway, 'app'> = {
    ...services,
    config,
    store,
    rawStore,
    auditSigner,
    readDb,
    reportDb,
    readModels,
    projector,
    logger: core.logger,
    clock: core.clock,
    adminToken: config.adminToken ?? deriveAdminToken(core.key),
    metrics: core.metrics,
    callbackQueries: readModels.callbacks,
    openWriterPort: () => (adapter instanceof SqliteEventStore ? adapter.openWriterPort() : null),
    commitSignal: () => (adapter instanceof SqliteEventStore ? adapter.commitSignal() : null),
    readBlockedUrlsFrom: (reading) => void (sources.blockedUrls = reading),
    async close() {
      services.testClock.stop();
      await callbacks.close();
      await projector?.stop();
      await store.close();
      await readDb.destroy();
      if (reportDb !== readDb) await reportDb.destroy();
      await cards.close();
    },
  };
  return withLazyApp(gateway, {
    key: core.key,
    realClock: clocks.realClock,
    sandboxClock: clocks.sandboxClock,
    connectors: connectors.registry,
    notificationUrls,
    callbackOverview: reads.callbackOverview,
    ledgerReports: reads.ledgerReports,
    paymentSearch: reads.paymentSearch,
    sandboxSecret: connectors.sandboxSecret,
    sandboxApmSecret: connectors.sandboxApmSecret,
  });
}

/** The gateway with its HTTP API built the first time it is asked for, and then kept. */
function withLazyApp(parts: Omit<Gateway, 'app'>, httpParts: GatewayHttpParts): Gateway {
  let app: Gateway['app'] | null = null;
  const gateway = Object.defineProperty(parts, 'app', {
    enumerable: true,
    get() {
      // Loaded here, not with this module: the threads and roles that serve no HTTP never need it.
      app ??= (require('./gateway-http') as typeof import('./gateway-http')).buildGatewayApp(gateway, httpParts);
      return app;
    },
  }) as Gateway;
  return gateway;
}
