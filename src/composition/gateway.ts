/**
 * What the composition root builds and what it is built from: the gateway's parts as the server,
 * the workers, the CLI, the HTTP wiring and the tests use them.
 */
import type Koa from 'koa';
import type { Kysely } from 'kysely';
import type { MessagePort } from 'node:worker_threads';
import type { CallbackQueries } from '../../projections/callback-deliveries/queries';
import type { ReadModelDatabase } from '../../projections/database-schema';
import type { LedgerReportQueries } from '../../projections/ledger/queries';
import type { PaymentQueries } from '../../projections/payments/queries';
import type { Projector } from '../../projections/projector';
import type { ReadModels } from '../../projections/read-models';
import type { SandboxApmProvider } from '../adapters/connectors/sandbox-apm/provider';
import type { GatewayMetrics } from '../adapters/metrics/gateway-metrics';
import type { WalletTrust } from '../adapters/wallets/trust';
import type { NotificationUrlCheck } from '../application/callbacks/notification-url-check';
import type { Notifier } from '../application/callbacks/notifier';
import type { CheckoutService } from '../application/checkout/checkout-service';
import type { SandboxClock } from '../application/clock/sandbox-clock';
import type { TestClockControl } from '../application/clock/test-clock-control';
import type { MerchantService } from '../application/merchant-service';
import type { PaymentService } from '../application/payments';
import type { PayoutService } from '../application/payouts';
import type { CallbackDeliveriesReadModel } from '../application/ports/callback-deliveries-read-model';
import type { CallbackSender } from '../application/ports/callback-sender';
import type { Clock } from '../application/ports/clock';
import type { Connector } from '../application/ports/connector';
import type { ConnectorRegistry } from '../application/ports/connector-registry';
import type { EventStore } from '../application/ports/event-store';
import type { Logger } from '../application/ports/logger';
import type { ScheduleService } from '../application/schedules/schedule-service';
import type { Scheduler } from '../application/schedules/scheduler';
import type { WalletService } from '../application/wallets';
import type { GatewayConfig } from '../config';
import type { CheckpointSigner } from '../domain/audit/signed-checkpoint';

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

/** What the routes call beside the gateway's own services: the parts of it only the HTTP API uses. */
export interface GatewayHttpParts {
  /** The vault key the dashboard's session key is derived from. */
  key: Buffer;
  /** Real time, for what the sandbox's movable clock must not move (lockouts, dashboard sessions). */
  realClock: Clock;
  sandboxClock: SandboxClock;
  connectors: ConnectorRegistry;
  notificationUrls: NotificationUrlCheck;
  callbackOverview: CallbackQueries;
  ledgerReports: LedgerReportQueries;
  paymentSearch: PaymentQueries;
  sandboxSecret: Buffer;
  sandboxApmSecret: Buffer;
}
