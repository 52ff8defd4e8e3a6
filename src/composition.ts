/**
 * The composition root: builds the gateway's parts from configuration. `main` (one process that
 * runs everything), the separate-process roles and the tests all build through here, so they run
 * the same code.
 */
import { createHmac } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import type Koa from 'koa';
import type { Kysely } from 'kysely';
import { allProjections } from '../projections';
import { createReadModelDb, createReportDb, migrateReadModels } from '../projections/database';
import type { ReadModelDatabase } from '../projections/database-schema';
import { Projector } from '../projections/projector';
import { READ_YOUR_WRITES, ReadModels } from '../projections/read-models';
import { CallbackQueries } from '../projections/callback-deliveries/queries';
import { scoped } from '../projections/database-schema';
import { LedgerReportQueries } from '../projections/ledger/queries';
import { PaymentQueries } from '../projections/payments/queries';
import { workerCheckpoint } from '../projections/worker-checkpoint';
import { SandboxConnector } from './adapters/connectors/sandbox';
import { connectorRegistry } from './adapters/connectors/registry';
import { SandboxBConnector } from './adapters/connectors/sandbox-b';
import { SandboxApmConnector, SandboxApmMobileMoneyConnector } from './adapters/connectors/sandbox-apm';
import { SandboxApmProvider } from './adapters/connectors/sandbox-apm/provider';
import { SandboxWalletConnector } from './adapters/connectors/sandbox-wallet';
import { WALLET_METHODS } from './domain/merchant/methods';
import { createEventStore } from './adapters/event-store/create-event-store';
import { eventStoreTarget, readModelTarget } from './storage-targets';
import { createJsonLogger } from './adapters/logging/json-logger';
import { withLogFields } from './adapters/logging/log-context';
import { GatewayMetrics } from './adapters/metrics/gateway-metrics';
import { MeasuredEventStore } from './adapters/metrics/measured-event-store';
import { measuredConnector } from './adapters/metrics/measured-connector';
import { preparePrivateDataDir } from './adapters/files/private-data-dir';
import { EncryptedCardVault, loadOrCreateVaultKey } from './adapters/vault/card-vault';
import { checkpointSignerFor } from './adapters/audit/signing-key';
import type { CheckpointSigner } from './domain/audit/signed-checkpoint';
import { decryptSecret, encryptSecret } from './adapters/vault/secret-box';
import { PostgresCardVault } from './adapters/vault/postgres-card-vault';
import type { CardVault, UnownedCardTokens } from './application/ports/card-vault';
import { claimUnownedCardTokens } from './application/vault/claim-unowned-card-tokens';
import { Pool } from 'pg';
import { surviveConnectionLoss } from './adapters/postgres/survive-connection-loss';
import { deriveAdminToken } from './api/admin/admin-auth';
import { HttpCallbackSender } from './adapters/http/callback-sender';
import { Notifier } from './application/callbacks/notifier';
import type { CallbackSender } from './application/ports/callback-sender';
import type { CallbackDeliveriesReadModel } from './application/ports/callback-deliveries-read-model';
import { NotificationUrlCheck } from './application/callbacks/notification-url-check';
import { systemResolver } from './adapters/http/dns-resolver';
import { tcpProbe } from './adapters/http/tcp-probe';
import { CheckoutService } from './application/checkout/checkout-service';
import { PENDING_CARD_TTL_MS, sweepPendingCardsPeriodically } from './application/checkout/pending-card-data';
import type { PendingCardData } from './application/ports/pending-card-data';
import { PostgresPendingCardData } from './adapters/vault/postgres-pending-card-data';
import { SqlitePendingCardData } from './adapters/vault/sqlite-pending-card-data';
import { MerchantService } from './application/merchant-service';
import { WalletService } from './application/wallets';
import { NodeWalletCrypto, walletKeyCipher } from './adapters/wallets/node-wallet-crypto';
import { walletTrustFor, type WalletTrust } from './adapters/wallets/trust';
import { appleMerchantSessionsFor } from './adapters/wallets/apple-merchant-sessions';
import { PaymentService } from './application/payments';
import { PayoutService } from './application/payouts';
import { ScheduleService } from './application/schedules/schedule-service';
import { Scheduler } from './application/schedules/scheduler';
import { SandboxClock } from './application/clock/sandbox-clock';
import { TestClockControl } from './application/clock/test-clock-control';
import { systemClock, type Clock } from './application/ports/clock';
import type { Connector } from './application/ports/connector';
import type { EventStore } from './application/ports/event-store';
import { withUpcasting } from './application/upcasting';
import type { Logger } from './application/ports/logger';
import type { GatewayConfig } from './config';
import type { MessagePort } from 'node:worker_threads';
import { SqliteEventStore } from './adapters/event-store/sqlite-event-store';

export interface Gateway {
  config: GatewayConfig;
  /** Events in their current shape: old schema versions are upcast as they are read. */
  store: EventStore;
  /** Events exactly as stored, for the audit (chain hashes cover the stored shape). */
  rawStore: EventStore;
  /** Signs audit checkpoints: AUDIT_SIGNING_KEY, else the key kept sealed in the data directory. */
  auditSigner: CheckpointSigner;
  readDb: Kysely<ReadModelDatabase>;
  /**
   * What the operator's reports (dashboard, admin ledger, metrics' callback backlog) read through:
   * on a SQLite file a read-only connection on a thread of its own, otherwise `readDb`.
   */
  reportDb: Kysely<ReadModelDatabase>;
  readModels: ReadModels;
  /** Present when this process projects (the embedded default, or the projector role). */
  projector: Projector | null;
  merchants: MerchantService;
  payments: PaymentService;
  /** Payouts (`CREDIT2VIRTUAL`), operators' top-ups and the payout balances with their feeder. */
  payouts: PayoutService;
  schedules: ScheduleService;
  /** Makes the automatic payments of schedules; started by the roles that schedule. */
  scheduler: Scheduler;
  /** The simulated provider of the sandbox's alternative methods, where `sandbox-apm` is configured (`sandbox decide`). */
  sandboxApm: SandboxApmProvider | null;
  /** The sandbox test clock (refuses in production). */
  testClock: TestClockControl;
  checkout: CheckoutService;
  /** Apple Pay and Google Pay: tokens (the card flow's verify and decrypt) and merchant wallet settings. */
  wallets: WalletService;
  /** The HTTP API, built the first time it is asked for. */
  readonly app: Koa;
  logger: Logger;
  clock: Clock;
  /** Bearer token of the `/admin` API. */
  adminToken: string;
  /** This process's Prometheus metrics (served at /metrics or on METRICS_PORT). */
  metrics: GatewayMetrics;
  /** Built in every process (operators redeliver through it); started only by the roles that deliver. */
  notifier: Notifier;
  callbackQueries: CallbackDeliveriesReadModel;
  /**
   * A channel to this process's event store writer for a store on another thread (see
   * BuildOptions.writerPort), or null when the store has no writer thread (PostgreSQL, EventStoreDB).
   */
  openWriterPort(): MessagePort | null;
  /** The event store writer's commit signal for subscriptions on another thread (BuildOptions.commitSignal), or null. */
  commitSignal(): SharedArrayBuffer | null;
  /** Where the blocked-URLs gauge reads from when callbacks are delivered on another thread. */
  readBlockedUrlsFrom(reading: () => number): void;
  close(): Promise<void>;
}

export interface BuildOptions {
  /** Run projections in this process. */
  withProjector: boolean;
  clock?: Clock;
  logger?: Logger;
  /** The deployment's connectors; default: the built-in sandbox acquirer. */
  connectors?: Connector[];
  /** Commit SQLite appends on a writer thread (the HTTP server wants its event loop free). */
  writerThread?: boolean;
  /** Commit SQLite appends through another thread's writer (Gateway.openWriterPort), as the process's one writer. */
  writerPort?: MessagePort;
  /** The commit signal of that writer (Gateway.commitSignal): event subscriptions read its commits at once. */
  commitSignal?: SharedArrayBuffer;
  /** How long after a commit of that writer event subscriptions read it; default 0. */
  eventCommitSettleMs?: number;
  /** How often event subscriptions look for appends they were not told of; the store's default otherwise. */
  eventPollIntervalMs?: number;
  /** Sends callbacks; default: HTTP. */
  callbackSender?: CallbackSender;
  /** See ProjectorOptions.gatherMs; 0 projects as soon as deliveries pause. */
  projectorGatherMs?: number;
  /** Wallet roots to trust; default: the sandbox's own, or production's from WALLET_* (adapters/wallets/trust.ts). */
  walletTrust?: WalletTrust;
  /** Also report the process's CPU, memory and event-loop delay (the server roles; not tools or tests). */
  processMetrics?: boolean;
  /** Wraps the event store adapter before anything uses it: the simulation injects its faults there. */
  wrapStore?: (store: EventStore) => EventStore;
}

export async function buildGateway(config: GatewayConfig, options: BuildOptions): Promise<Gateway> {
  preparePrivateDataDir(config.dataDir);
  const logger = options.logger ?? createJsonLogger(config.logLevel);
  // The sandbox's clock can be moved ahead by the test clock; production keeps real time.
  const sandboxClock = new SandboxClock(options.clock ?? systemClock);
  const clock: Clock = config.environment === 'sandbox' ? sandboxClock : (options.clock ?? systemClock);

  // Readings taken when /metrics is scraped, from parts built further down.
  let readModelsForMetrics: ReadModels | undefined;
  let callbacksForMetrics: CallbackQueries | undefined;
  let notifierForMetrics: Notifier | undefined;
  let blockedUrlsReading: (() => number) | undefined;
  const metrics: GatewayMetrics = new GatewayMetrics({
    processMetrics: options.processMetrics,
    onReadingError: (what, error) => logger.warn(`metrics: could not read ${what}`, { error: String(error) }),
    readings: {
      head: (): Promise<bigint | null> => rawStore.headPosition(),
      checkpoints: () => readModelsForMetrics!.checkpoints(),
      callbackBacklog: () => callbacksForMetrics!.backlog(clock.now().toISOString()),
      blockedUrls: () => blockedUrlsReading?.() ?? notifierForMetrics?.blockedUrls().length ?? 0,
      chainsDue: () => readModelsForMetrics!.schedules.countChainsDue(clock.now().toISOString().slice(0, 10)),
    },
  });

  const adapter = await createEventStore({
    ...eventStoreTarget(config),
    writerThread: options.writerThread,
    writerPort: options.writerPort,
    commitSignal: options.commitSignal,
    commitSettleMs: options.eventCommitSettleMs,
    pollIntervalMs: options.eventPollIntervalMs,
  });
  const rawStore: EventStore = new MeasuredEventStore(options.wrapStore ? options.wrapStore(adapter) : adapter, metrics);
  // Everything but the audit reads events in their current shape (old schema versions upcast).
  const store = withUpcasting(rawStore);
  const readDb = createReadModelDb(readModelTarget(config), (error) =>
    logger.warn('read models lost a database connection, it reconnects', { error: error.message }),
  );
  await migrateReadModels(readDb);
  const projector = options.withProjector
    ? new Projector({
        store,
        db: readDb,
        projections: allProjections(),
        gatherMs: options.projectorGatherMs ?? 0,
        onError: (error) => logger.error('projector failed, it will resubscribe', { error: String(error) }),
        readersWaitFor: READ_YOUR_WRITES,
      })
    : null;
  // Without a projector here, read-your-writes polls the checkpoints the projector commits.
  const readModels = new ReadModels({ db: readDb, store, projector: projector ?? undefined, pollIntervalMs: 5 });
  readModelsForMetrics = readModels;
  // Operators' reads beyond the ports the payment APIs use: the dashboard, the admin ledger route
  // and the metrics' gauges. They aggregate or search whole tables; on SQLite they run on a thread
  // of their own (report-connection.ts).
  const reportDb = createReportDb(readModelTarget(config)) ?? readDb;
  const callbackOverview = new CallbackQueries(scoped(reportDb));
  callbacksForMetrics = callbackOverview;
  const ledgerReports = new LedgerReportQueries(scoped(reportDb));
  const paymentSearch = new PaymentQueries(scoped(reportDb));

  const key = loadOrCreateVaultKey({ keyHex: config.vaultKeyHex ?? undefined, keyFile: path.join(config.dataDir, 'vault.key') });
  const auditSigner = checkpointSignerFor({ configured: config.auditSigningKey, dataDir: config.dataDir, vaultKey: key });
  // Stored cards must be visible to every API process: on PostgreSQL when the deployment has it.
  // So must hosted-fields card data: the card frame and the merchant may reach different processes.
  let vault: CardVault & UnownedCardTokens;
  let pendingCards: PendingCardData;
  const pendingCardOptions = { vaultKey: key, ttlMs: PENDING_CARD_TTL_MS, now: () => clock.now().getTime() };
  let closeVault: () => Promise<void>;
  if (config.databaseUrl && config.eventStore !== 'sqlite') {
    const pool = surviveConnectionLoss(new Pool({ connectionString: config.databaseUrl, max: 4 }), (error) =>
      logger.warn('card vault lost a database connection, it reconnects', { error: error.message }),
    );
    vault = await PostgresCardVault.create(pool, key);
    pendingCards = await PostgresPendingCardData.create(pool, pendingCardOptions);
    closeVault = () => pool.end();
  } else {
    const vaultDb = new Database(path.join(config.dataDir, 'vault.db'));
    vaultDb.pragma('journal_mode = WAL');
    vaultDb.pragma('synchronous = FULL');
    vaultDb.pragma('busy_timeout = 5000');
    vault = new EncryptedCardVault({ db: vaultDb, key });
    pendingCards = new SqlitePendingCardData(vaultDb, pendingCardOptions);
    closeVault = async () => void vaultDb.close();
  }
  const pendingCardSweep = sweepPendingCardsPeriodically(pendingCards, {
    onError: (error) => logger.warn('could not delete expired hosted-fields card data, will try again', { error: String(error) }),
  });
  await claimUnownedCardTokens(vault, store, logger);
  // Derived, so every process sharing the vault key signs and verifies the same payer links.
  const sandboxSecret = createHmac('sha256', key).update('sandbox-payer-links').digest();
  // The sandbox APM provider's links and notifications, derived the same way (docs/apm.md#how-the-sandbox-decides).
  const sandboxApmSecret = createHmac('sha256', key).update('sandbox-apm-provider').digest();
  const configuredConnectors =
    options.connectors ??
      config.connectors.map((name): Connector => {
        switch (name) {
          case 'sandbox':
            return new SandboxConnector({
              secret: sandboxSecret,
              simulatorBaseUrl: config.publicBaseUrl,
              descriptor: config.sandboxDescriptor,
              latencyMs: config.sandboxLatencyMs,
              now: () => clock.now(),
            });
          case 'sandbox-b':
            return new SandboxBConnector({ now: () => clock.now() });
          case 'sandbox-apm':
            // With the mobile-money methods: it pays out (CREDIT2VIRTUAL) as well as collecting.
            return new SandboxApmMobileMoneyConnector({ secret: sandboxApmSecret, simulatorBaseUrl: config.publicBaseUrl, now: () => clock.now() });
          case 'sandbox-wallet':
            return new SandboxWalletConnector();
          default: {
            const unknown: never = name;
            return unknown;
          }
        }
      });
  // Timed wherever a payment calls one (acquirer latency by connector, operation and outcome).
  const connectors = connectorRegistry(configuredConnectors.map((connector) => measuredConnector(connector, metrics)));

  const notificationUrls = new NotificationUrlCheck({
    resolve: systemResolver,
    probe: tcpProbe,
    allowNonPublicAddresses: config.callbacks.allowNonPublicAddresses,
  });
  const merchants = new MerchantService({
    store,
    lookup: readModels,
    cipher: {
      encrypt: (plaintext) => encryptSecret(key, plaintext, 'merchant-password'),
      decrypt: (ciphertext) => decryptSecret(key, ciphertext, 'merchant-password'),
    },
    clock,
    environment: config.environment,
    notificationUrls,
    connectorNames: connectors.all().map((c) => c.name),
    methodNames: [...new Set([...connectors.all().flatMap((c) => c.capabilities.methods.filter((m) => m !== 'card')), ...WALLET_METHODS])],
  });
  // The sandbox trusts only its own wallet roots (wallet init); production only the wallets' real ones.
  const wallets = new WalletService({
    store,
    crypto: new NodeWalletCrypto(options.walletTrust ?? walletTrustFor(config.environment, config.dataDir, process.env)),
    cipher: walletKeyCipher(key),
    clock,
    merchantSessions: appleMerchantSessionsFor(config.appleMerchantValidation),
    logger,
  });
  const payments = new PaymentService({ store, connectors, vault, clock, logger, baseUrl: config.publicBaseUrl, wallets: wallets.tokens });
  const sandboxApm = configuredConnectors.some((c) => c instanceof SandboxApmConnector)
    ? new SandboxApmProvider({ secret: sandboxApmSecret, payments, now: () => clock.now() })
    : null;
  // Payouts spend the merchant's payout balance; the feeder (started with the projector) keeps it fed from the log.
  const payouts = new PayoutService({
    store,
    connectors,
    clock,
    logger,
    baseUrl: config.publicBaseUrl,
    feederCheckpoint: workerCheckpoint(readDb, 'payout-balance-feeder'),
  });
  const schedules = new ScheduleService({ store, clock, chains: readModels });
  const scheduler = new Scheduler({ store, payments, clock, logger, due: readModels });
  const testClock = new TestClockControl({
    store,
    clock: sandboxClock,
    environment: config.environment,
    logger,
    scheduler,
    async earliestDueDateAfter(date) {
      await readModels.catchUpToHead(10_000);
      return readModels.earliestDueDateAfter(date);
    },
  });
  // Start where the sandbox's clock was last moved to, by whichever process moved it.
  await testClock.sync();
  const checkout = new CheckoutService({
    store,
    payments,
    merchants,
    vault,
    clock,
    baseUrl: config.publicBaseUrl,
    // Derived like the sandbox secret, so every API process verifies every other's tokens.
    tokenSecret: createHmac('sha256', key).update('hosted-fields-tokens').digest(),
    pendingCards,
    schedules,
  });

  const callbackQueries = readModels.callbacks;
  const callbackSender =
    options.callbackSender ?? new HttpCallbackSender({ allowNonPublicAddresses: config.callbacks.allowNonPublicAddresses });
  const notifier = new Notifier({
    store,
    merchants,
    queries: callbackQueries,
    checkpoint: workerCheckpoint(readDb, 'notifier'),
    sender: callbackSender,
    clock,
    signingClock: sandboxClock.real,
    logger,
    settings: config.callbacks,
    withLogFields,
  });
  notifierForMetrics = notifier;

  const adminToken = config.adminToken ?? deriveAdminToken(key);
  let app: Koa | null = null;

  const gateway: Gateway = {
    config,
    store,
    rawStore,
    auditSigner,
    readDb,
    reportDb,
    readModels,
    projector,
    merchants,
    payments,
    payouts,
    schedules,
    scheduler,
    testClock,
    sandboxApm,
    checkout,
    wallets,
    get app() {
      // Loaded here, not with this module: the threads and roles that serve no HTTP never need it.
      app ??= (require('./gateway-http') as typeof import('./gateway-http')).buildGatewayApp(gateway, {
        key,
        realClock: options.clock ?? systemClock,
        sandboxClock,
        connectors,
        notificationUrls,
        callbackOverview,
        ledgerReports,
        paymentSearch,
        sandboxSecret,
        sandboxApmSecret,
      });
      return app;
    },
    logger,
    clock,
    adminToken,
    metrics,
    notifier,
    callbackQueries,
    openWriterPort: () => (adapter instanceof SqliteEventStore ? adapter.openWriterPort() : null),
    commitSignal: () => (adapter instanceof SqliteEventStore ? adapter.commitSignal() : null),
    readBlockedUrlsFrom: (reading) => (blockedUrlsReading = reading),
    async close() {
      testClock.stop();
      await notifier.stop();
      if (!options.callbackSender) callbackSender.close();
      await projector?.stop();
      await store.close();
      await readDb.destroy();
      if (reportDb !== readDb) await reportDb.destroy();
      await pendingCardSweep.stop();
      await closeVault();
    },
  };
  return gateway;
}

