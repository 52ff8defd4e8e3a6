/**
 * The gateway's Prometheus metrics (docs/operations.md lists them): one registry per gateway, so
 * every process serves its own and tests may build many gateways side by side.
 *
 * Most of what happens is read off the events this process appends (measured-event-store.ts):
 * payments and their outcomes, callback deliveries and attempts, scheduled payments, audit
 * checkpoints. Acquirer calls are timed around the connectors (measured-connector.ts), HTTP
 * requests by the app's middleware. Gauges of state kept elsewhere (projection lag, the callback
 * backlog, chains due) are read when scraped, never on the request path.
 */
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type MetricObjectWithValues, type MetricValue } from 'prom-client';

/** A registry's counts as data that can cross to another thread (GatewayMetrics.countsSnapshot). */
export type CountsSnapshot = Array<MetricObjectWithValues<MetricValue<string>>>;
import type { NewEvent } from '../../application/ports/event-store';
import { threadCpuSeconds } from '../os/linux-threads';

/** Readings taken at scrape time; each may fail (database down) without failing the scrape. */
export interface ScrapeReadings {
  /** Event-store head position, null when the store is empty. */
  head(): Promise<bigint | null>;
  /** Committed position per projection. */
  checkpoints(): Promise<Record<string, bigint>>;
  /** Callback deliveries waiting: pending (due now or later) and in flight. */
  callbackBacklog(): Promise<{ pending: number; due: number; inFlight: number }>;
  /** URLs the notifier of this process holds back after repeated timeouts. */
  blockedUrls(): number;
  /** Open chains whose next automatic payment is due by now. */
  chainsDue(): Promise<number>;
}

export interface GatewayMetricsOptions {
  /** CPU, memory, event-loop delay and the like of this process (off in tools and tests). */
  processMetrics?: boolean;
  readings?: ScrapeReadings;
  /** Called when a scrape-time reading fails; the gauge is then left out of that scrape. */
  onReadingError?: (what: string, error: unknown) => void;
}

/**
 * The process's CPU by thread (linux-threads.ts): which one a load fills first, the HTTP thread
 * (`main` in the `all` and `api` roles), the event store's `writer`, the `projector`, the
 * `notifier`, the `workers`, the `reports` thread, or the `runtime`'s own (garbage collection,
 * compilation). Absent off Linux.
 */
function threadCpuCounter(registers: Registry[]): void {
  new Counter({
    name: 'gateway_thread_cpu_seconds_total',
    help: 'User and system CPU time of this process by thread: main, writer, projector, notifier, workers, reports, runtime',
    labelNames: ['thread'],
    registers,
    collect() {
      this.reset();
      for (const { thread, seconds } of threadCpuSeconds() ?? []) this.inc({ thread }, seconds);
    },
  });
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const DELAY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 21600, 86400];
const BATCH_BUCKETS = [1, 2, 3, 5, 10, 25, 50, 100, 500, 1000, 10000];

const PAYMENT_OUTCOMES: Readonly<Record<string, string>> = {
  PaymentSettled: 'settled',
  PaymentAuthorized: 'authorized',
  PaymentDeclined: 'declined',
  ThreeDSChallengeRequired: 'challenge',
  PayerRedirectRequired: 'redirect',
  PaymentOutcomeUnknown: 'unknown',
};

/** Payments remembered between their initiation and their outcome, for the outcome's labels. */
const REMEMBERED_PAYMENTS = 10_000;
const REMEMBERED_DELIVERIES = 10_000;

/** A label from event data: short identifier-like text, else `other` (labels must stay few). */
const label = (value: unknown, fallback = 'other'): string =>
  typeof value === 'string' && /^[A-Za-z0-9_.-]{1,40}$/.test(value) ? value.toLowerCase() : fallback;

/** What a payment is made with: a card, or the alternative method's name. */
function methodOf(data: Record<string, unknown>): string {
  const method = data.method as { brand?: unknown } | undefined;
  return method && typeof method === 'object' ? label(method.brand) : 'card';
}

/** Remembers up to `max` entries, forgetting the oldest first. */
function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  if (map.size >= max) map.delete(map.keys().next().value!);
  map.set(key, value);
}

/** HTTP requests, payments and their outcomes, and calls to acquirers and providers. */
function requestMetrics(registers: Registry[]) {
  return {
    http: new Histogram({
      name: 'gateway_http_request_duration_seconds',
      help: 'HTTP requests by method, matched route pattern, S2S action (/post only) and status; _count counts them',
      labelNames: ['method', 'route', 'action', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    paymentsInitiated: new Counter({
      name: 'gateway_payments_initiated_total',
      help: 'Payments initiated by this process, by channel and method (card or the alternative method)',
      labelNames: ['channel', 'method'],
      registers,
    }),
    paymentOutcomes: new Counter({
      name: 'gateway_payment_outcomes_total',
      help: 'Acquirer answers recorded by this process: settled, authorized, declined, challenge (3-D Secure), redirect, unknown',
      labelNames: ['channel', 'method', 'outcome'],
      registers,
    }),
    connectorCalls: new Histogram({
      name: 'gateway_connector_call_duration_seconds',
      help: 'Calls to acquirers and providers by connector, operation and outcome (error: the call threw)',
      labelNames: ['connector', 'operation', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
  };
}
type RequestMetrics = ReturnType<typeof requestMetrics>;

function eventStoreMetrics(registers: Registry[]) {
  return {
    appendSeconds: new Histogram({
      name: 'gateway_event_store_append_duration_seconds',
      help: 'Event-store appends (append, appendMultiple) until committed, by result (ok, conflict, error)',
      labelNames: ['operation', 'result'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    appendEvents: new Histogram({
      name: 'gateway_event_store_append_batch_events',
      help: 'Events per committed append call',
      labelNames: ['operation'],
      buckets: BATCH_BUCKETS,
      registers,
    }),
  };
}
type EventStoreMetrics = ReturnType<typeof eventStoreMetrics>;

function callbackMetrics(registers: Registry[]) {
  return {
    scheduled: new Counter({ name: 'gateway_callback_deliveries_scheduled_total', help: 'Callback deliveries scheduled by this process', registers }),
    attempts: new Counter({ name: 'gateway_callback_attempts_total', help: 'Callback attempts started by this process', registers }),
    attemptFailures: new Counter({
      name: 'gateway_callback_attempt_failures_total',
      help: 'Failed callback attempts: timeout, status (the merchant answered outside 2xx) or no_answer (connection refused, DNS, TLS)',
      labelNames: ['reason'],
      registers,
    }),
    delivered: new Counter({ name: 'gateway_callbacks_delivered_total', help: 'Callbacks delivered (2xx)', registers }),
    failed: new Counter({ name: 'gateway_callbacks_failed_total', help: 'Callbacks given up after the whole retry schedule', registers }),
    redeliveries: new Counter({ name: 'gateway_callback_redeliveries_total', help: 'Redeliveries operators asked for', registers }),
    delay: new Histogram({
      name: 'gateway_callback_delivery_delay_seconds',
      help: 'From a delivery being scheduled (or redelivered) to its delivery, retries included; deliveries this process scheduled and delivered',
      buckets: DELAY_BUCKETS,
      registers,
    }),
  };
}
type CallbackMetrics = ReturnType<typeof callbackMetrics>;

function auditMetrics(registers: Registry[]) {
  return {
    checkpoints: new Counter({ name: 'gateway_audit_checkpoints_total', help: 'Audit checkpoints recorded by this process', registers }),
    lastCheckpointPosition: new Gauge({
      name: 'gateway_audit_last_checkpoint_up_to_position',
      help: 'Log position the newest audit checkpoint recorded by this process covers',
      registers,
    }),
    lastCheckpointTime: new Gauge({
      name: 'gateway_audit_last_checkpoint_timestamp_seconds',
      help: 'When this process recorded its newest audit checkpoint (Unix time)',
      registers,
    }),
  };
}
type AuditMetrics = ReturnType<typeof auditMetrics>;

export class GatewayMetrics {
  readonly registry = new Registry();

  private readonly requests: RequestMetrics;
  private readonly store: EventStoreMetrics;
  private readonly callbacks: CallbackMetrics;
  private readonly scheduled: Counter<'step'>;
  private readonly audit: AuditMetrics;

  private readonly payments = new Map<string, { channel: string; method: string }>();
  private readonly deliveryStarts = new Map<string, number>();
  /** Other threads' counts, shown added to this registry's (the `all` role's background thread). */
  private readonly countSources: Array<() => CountsSnapshot | null> = [];

  constructor(options: GatewayMetricsOptions = {}) {
    const registers = [this.registry];
    if (options.processMetrics) {
      collectDefaultMetrics({ register: this.registry });
      threadCpuCounter(registers);
    }

    // Registered in this order, which is the order /metrics lists them in.
    this.requests = requestMetrics(registers);
    this.store = eventStoreMetrics(registers);
    this.callbacks = callbackMetrics(registers);
    this.scheduled = new Counter({
      name: 'gateway_scheduler_steps_total',
      help: 'Steps of recurring chains recorded by this process: payment (an automatic payment made), skipped, ended',
      labelNames: ['step'],
      registers,
    });
    this.audit = auditMetrics(registers);
    if (options.readings) this.scrapeGauges(options.readings, options.onReadingError ?? (() => undefined));
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  async render(): Promise<string> {
    const others = this.countSources.map((source) => source()).filter((counts): counts is CountsSnapshot => counts !== null);
    if (others.length === 0) return this.registry.metrics();
    return AggregatorRegistry.aggregate([await this.registry.getMetricsAsJSON(), ...others]).metrics();
  }

  /**
   * What this process counted (counters, histograms, the newest audit checkpoint's time), for a
   * thread whose work the process's own registry shows (addCountsFrom). The gauges read on scrape
   * (lag, backlog, blocked URLs) are left out: the showing registry reads those itself.
   */
  async countsSnapshot(): Promise<CountsSnapshot> {
    const counts: CountsSnapshot = [];
    for (const metric of this.registry.getMetricsAsArray()) {
      if ((metric as unknown) instanceof Gauge && (metric as unknown) !== this.audit.lastCheckpointTime && (metric as unknown) !== this.audit.lastCheckpointPosition) continue;
      counts.push((await (metric as unknown as { get(): Promise<CountsSnapshot[number]> }).get()) as CountsSnapshot[number]);
    }
    return counts;
  }

  /** Shows the counts `source` gives (its latest snapshot, or null) added to this registry's on every render. */
  addCountsFrom(source: () => CountsSnapshot | null): void {
    this.countSources.push(source);
  }

  httpRequest(method: string, route: string, action: string, status: number, seconds: number): void {
    this.requests.http.observe({ method, route, action, status }, seconds);
  }

  connectorCall(connector: string, operation: string, outcome: string, seconds: number): void {
    this.requests.connectorCalls.observe({ connector, operation, outcome }, seconds);
  }

  appendFinished(operation: 'append' | 'appendMultiple', result: 'ok' | 'conflict' | 'error', seconds: number, eventCount: number): void {
    this.store.appendSeconds.observe({ operation, result }, seconds);
    if (result === 'ok') this.store.appendEvents.observe({ operation }, eventCount);
  }

  /** Reads what happened off events this process has just appended. */
  appended(events: readonly NewEvent[]): void {
    for (const event of events) {
      const data = event.data;
      switch (event.type) {
        case 'PaymentInitiated': {
          const labels = { channel: label(data.channel, 'unknown'), method: methodOf(data) };
          remember(this.payments, String(data.paymentId), labels, REMEMBERED_PAYMENTS);
          this.requests.paymentsInitiated.inc(labels);
          break;
        }
        case 'CallbackScheduled':
          this.callbacks.scheduled.inc();
          remember(this.deliveryStarts, String(data.deliveryId), Date.parse(String(data.scheduledAt)), REMEMBERED_DELIVERIES);
          break;
        case 'CallbackRedeliveryRequested':
          this.callbacks.redeliveries.inc();
          remember(this.deliveryStarts, String(data.deliveryId), Date.parse(String(data.requestedAt)), REMEMBERED_DELIVERIES);
          break;
        case 'CallbackAttemptStarted':
          this.callbacks.attempts.inc();
          break;
        case 'CallbackAttemptFailed':
          this.callbacks.attemptFailures.inc({ reason: data.timedOut === true ? 'timeout' : data.statusCode == null ? 'no_answer' : 'status' });
          break;
        case 'CallbackDelivered': {
          this.callbacks.delivered.inc();
          const id = String(data.deliveryId);
          const started = this.deliveryStarts.get(id);
          this.deliveryStarts.delete(id);
          const delivered = Date.parse(String(data.deliveredAt));
          if (started !== undefined && Number.isFinite(started) && delivered >= started) this.callbacks.delay.observe((delivered - started) / 1000);
          break;
        }
        case 'CallbackFailed':
          this.callbacks.failed.inc();
          this.deliveryStarts.delete(String(data.deliveryId));
          break;
        case 'ScheduledPaymentStarted':
          this.scheduled.inc({ step: 'payment' });
          break;
        case 'ScheduledPaymentSkipped':
          this.scheduled.inc({ step: 'skipped' });
          break;
        case 'ScheduledChainEnded':
          this.scheduled.inc({ step: 'ended' });
          break;
        case 'AuditCheckpointRecorded': {
          this.audit.checkpoints.inc();
          const upTo = Number(data.upToPosition);
          if (Number.isFinite(upTo)) this.audit.lastCheckpointPosition.set(upTo);
          const at = Date.parse(String(data.recordedAt));
          if (Number.isFinite(at)) this.audit.lastCheckpointTime.set(at / 1000);
          break;
        }
        default: {
          const outcome = PAYMENT_OUTCOMES[event.type];
          if (outcome === undefined) break;
          const paymentId = String(data.paymentId);
          const labels = this.payments.get(paymentId) ?? { channel: 'unknown', method: 'unknown' };
          // An outcome ends the wait for one (a challenge or redirect is followed by another).
          if (outcome !== 'challenge' && outcome !== 'redirect') this.payments.delete(paymentId);
          this.requests.paymentOutcomes.inc({ ...labels, outcome });
        }
      }
    }
  }

  private scrapeGauges(readings: ScrapeReadings, onError: (what: string, error: unknown) => void): void {
    const registers = [this.registry];
    const attempt = async (what: string, read: () => Promise<void>) => {
      try {
        await read();
      } catch (error) {
        onError(what, error);
      }
    };
    new Gauge({
      name: 'gateway_event_store_head_position',
      help: 'Global position of the newest event in the store',
      registers,
      async collect() {
        await attempt('event-store head', async () => {
          this.reset();
          const head = await readings.head();
          if (head !== null) this.set(Number(head));
        });
      },
    });
    new Gauge({
      name: 'gateway_projection_lag_events',
      help: 'How far each read model is behind the event store, in positions (events on SQLite and PostgreSQL)',
      labelNames: ['projection'],
      registers,
      async collect() {
        await attempt('projection lag', async () => {
          this.reset();
          const [head, checkpoints] = await Promise.all([readings.head(), readings.checkpoints()]);
          for (const [projection, position] of Object.entries(checkpoints)) {
            this.set({ projection }, head === null ? 0 : Math.max(0, Number(head - position)));
          }
        });
      },
    });
    new Gauge({
      name: 'gateway_callback_backlog',
      help: 'Callback deliveries not finished: pending (waiting for their next attempt), due (pending and due now), in_flight',
      labelNames: ['state'],
      registers,
      async collect() {
        await attempt('callback backlog', async () => {
          this.reset();
          const backlog = await readings.callbackBacklog();
          this.set({ state: 'pending' }, backlog.pending);
          this.set({ state: 'due' }, backlog.due);
          this.set({ state: 'in_flight' }, backlog.inFlight);
        });
      },
    });
    new Gauge({
      name: 'gateway_callback_blocked_urls',
      help: 'Notification URLs the notifier of this process holds back after repeated timeouts',
      registers,
      collect() {
        this.set(readings.blockedUrls());
      },
    });
    new Gauge({
      name: 'gateway_scheduler_chains_due',
      help: 'Open recurring chains whose next automatic payment is due by now',
      registers,
      async collect() {
        await attempt('chains due', async () => {
          this.reset();
          this.set(await readings.chainsDue());
        });
      },
    });
  }
}
