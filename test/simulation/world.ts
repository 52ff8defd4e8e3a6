/**
 * The gateway under simulation: the real application, built through the composition root twice on
 * one store, as `npm start` runs it on its threads: an API process (HTTP, projector) and a workers
 * process (payout balance feeder, notifier, scheduler, expiry, reconciliation) that can be
 * restarted from its checkpoints. Time is a virtual clock; the provider, the merchant's callback
 * endpoint and the store's faults are drawn from the seed.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJsonLogger } from '../../src/adapters/logging/json-logger';
import type { CallbackRequest, CallbackResponse, CallbackSender } from '../../src/application/ports/callback-sender';
import type { Clock } from '../../src/application/ports/clock';
import type { EventStore } from '../../src/application/ports/event-store';
import { buildGateway, type Gateway } from '../../src/composition';
import { loadConfig } from '../../src/config';
import { expireAbandonedPayerActions } from '../../src/workers/payer-action-expiry';
import { reconcileOpenPayments } from '../../src/workers/reconciler';
import { FaultInjector, FlakyEventStore, InjectedFault } from '../support/flaky-store';
import { createTestSchema, dropSchema } from '../support/postgres';
import { SimulatedProvider } from './connector';
import { Random } from './random';

export type SimStore = 'sqlite' | 'postgres';

/** Minutes a payer has for 3-D Secure or a redirect before the gateway gives up. */
export const PAYER_TIMEOUT_MINUTES = 15;
export const SIM_START = Date.parse('2031-03-03T09:00:00.000Z');
/** The gateway's callback retries (CALLBACK_RETRY_SCHEDULE), short enough for a run to use them up. */
export const CALLBACK_RETRIES = '1m,5m,30m,2h,12h';

export class VirtualClock implements Clock {
  constructor(private ms: number) {}
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** One callback as the merchant's endpoint received it. */
export interface ReceivedCallback {
  deliveryId: string;
  attempt: number;
  fields: Record<string, string>;
  body: string;
  /** Whether the endpoint answered 2xx (the gateway may still not hear it: a timeout after the work). */
  acknowledged: boolean;
  at: number;
  /** Which life of the workers process sent it (it counts restarts). */
  generation: number;
}

/** The merchant's callback endpoint: up, down, or slow past the gateway's timeout, by the seed. */
export class MerchantEndpoint implements CallbackSender {
  readonly received: ReceivedCallback[] = [];
  down = false;

  constructor(
    private readonly random: Random,
    private readonly clock: VirtualClock,
    private readonly generation: () => number,
  ) {}

  async send(request: CallbackRequest): Promise<CallbackResponse> {
    await this.random.turns();
    const fields = Object.fromEntries(new URLSearchParams(request.body));
    const entry = { deliveryId: request.headers['X-Delivery-Id']!, attempt: Number(request.headers['X-Delivery-Attempt']), fields, body: request.body, at: this.clock.now().getTime(), generation: this.generation() };
    if (this.down) {
      this.received.push({ ...entry, acknowledged: false });
      return { statusCode: 503, latencyMs: 1, error: null, timedOut: false };
    }
    const draw = this.random.next();
    if (draw < 0.08) {
      this.received.push({ ...entry, acknowledged: false });
      return { statusCode: 500, latencyMs: 1, error: null, timedOut: false };
    }
    if (draw < 0.13) {
      // Processed, but the answer came too late for the gateway: it sends again under the same id.
      this.received.push({ ...entry, acknowledged: true });
      return { statusCode: null, latencyMs: request.timeoutMs, error: 'timeout', timedOut: true };
    }
    this.received.push({ ...entry, acknowledged: true });
    return { statusCode: 200, latencyMs: 1, error: null, timedOut: false };
  }

  close(): void {}
}

export interface WorldOptions {
  seed: number;
  store: SimStore;
}

export class World {
  readonly random: Random;
  readonly clock = new VirtualClock(SIM_START);
  readonly provider: SimulatedProvider;
  readonly endpoint: MerchantEndpoint;
  readonly faults: FaultInjector;
  api!: Gateway;
  workers!: Gateway;
  baseUrl = '';
  /** Restarts of the workers process so far. */
  generation = 0;
  /** Worker passes that failed (an injected fault): they run again at the next pass. */
  failedPasses = 0;
  private server: http.Server | null = null;
  private dataDir = '';
  private schema: string | null = null;
  private env: Record<string, string> = {};
  private readonly connectors;

  constructor(private readonly options: WorldOptions) {
    this.random = new Random(options.seed);
    this.provider = new SimulatedProvider(this.random.fork(1), () => this.clock.now().getTime());
    this.endpoint = new MerchantEndpoint(this.random.fork(2), this.clock, () => this.generation);
    this.faults = new FaultInjector(0.15, options.seed ^ 0x5eed, (what) => what !== 'headPosition');
    this.faults.failing = false;
    this.connectors = this.provider.connectors();
  }

  async start(): Promise<void> {
    this.dataDir = mkdtempSync(join(tmpdir(), 'gw-sim-'));
    let databaseUrl: string | null = null;
    if (this.options.store === 'postgres') {
      const created = await createTestSchema('sim');
      this.schema = created.schema;
      databaseUrl = created.url;
    }
    let handler: http.RequestListener = (_req, res) => {
      res.statusCode = 503;
      res.end();
    };
    this.server = http.createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(0, '127.0.0.1', () => resolve());
    });
    const port = (this.server.address() as AddressInfo).port;
    this.baseUrl = `http://127.0.0.1:${port}`;
    this.env = {
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_BASE_URL: this.baseUrl,
      DATA_DIR: this.dataDir,
      GATEWAY_LOG_LEVEL: 'silent',
      VAULT_KEY: randomBytes(32).toString('hex'),
      GATEWAY_ENV: 'sandbox',
      PAYER_ACTION_TIMEOUT_MINUTES: String(PAYER_TIMEOUT_MINUTES),
      CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true',
      CALLBACK_TIMEOUT: '2s',
      CALLBACK_RETRY_SCHEDULE: CALLBACK_RETRIES,
      AUTH_FAILURE_LIMIT: 'off',
      AUTH_FAILURE_IP_LIMIT: 'off',
      AUTH_FAILURE_KEY_LIMIT: 'off',
      AUDIT_CHECKPOINT_INTERVAL_SECONDS: '0',
      ...(databaseUrl ? { EVENT_STORE: 'postgres', DATABASE_URL: databaseUrl } : { EVENT_STORE: 'sqlite' }),
    };
    this.api = await this.build(true);
    await this.api.projector!.start();
    handler = this.api.app.callback();
    this.workers = await this.build(false);
    await this.workers.notifier.start();
  }

  private build(withProjector: boolean): Promise<Gateway> {
    return buildGateway(loadConfig(this.env), {
      withProjector,
      clock: this.clock,
      logger: createJsonLogger(process.env.SIM_LOG === 'error' ? 'error' : 'silent'),
      connectors: this.connectors,
      callbackSender: this.endpoint,
      wrapStore: (store: EventStore) => new FlakyEventStore(store, this.faults),
    });
  }

  /** The workers process dies and starts again from its checkpoints. */
  async restartWorkers(): Promise<void> {
    await this.workers.close();
    this.generation++;
    // A process that cannot start on a failing database is started again, as its supervisor would.
    for (let attempt = 1; ; attempt++) {
      try {
        this.workers = await this.build(false);
        break;
      } catch (error) {
        if (!(error instanceof InjectedFault) || attempt >= 50) throw error;
      }
    }
    await this.workers.notifier.start();
  }

  /**
   * Everything the background does once: project, feed the payout balances, expire abandoned payer
   * actions, reconcile lost answers, make due scheduled payments, and deliver callbacks.
   */
  async runWorkers(): Promise<void> {
    const w = this.workers;
    await this.pass(() => this.api.projector!.catchUp());
    await this.pass(() => w.payouts.feedBalances());
    await this.pass(() =>
      expireAbandonedPayerActions({ candidates: w.readModels, payments: w.payments, clock: w.clock, logger: w.logger, timeoutMinutes: PAYER_TIMEOUT_MINUTES }),
    );
    await this.pass(() => reconcileOpenPayments({ candidates: w.readModels, payments: w.payments, clock: w.clock, logger: w.logger }));
    await this.pass(() => w.scheduler.runDue());
    await this.pass(() => this.api.projector!.catchUp());
    await this.pass(() => w.payouts.feedBalances());
    await this.pass(() => w.notifier.catchUp(5_000));
    await this.pass(() => w.notifier.runDue());
    await this.pass(() => w.notifier.idle());
  }

  private async pass(work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (!(error instanceof InjectedFault) && !this.faults.failing) throw error;
      this.failedPasses++;
    }
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    try {
      await this.workers?.close();
      await this.api?.close();
    } finally {
      rmSync(this.dataDir, { recursive: true, force: true });
      if (this.schema) await dropSchema(this.schema);
    }
  }
}
