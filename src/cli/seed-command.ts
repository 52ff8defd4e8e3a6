/**
 * `seed --events N [--merchants M]`: fills the configured event store with realistic payment
 * histories, fast, for rebuild benchmarks and for trying the operator tools on volume.
 *
 * Every event comes out of the real payment decider, fed the command data the gateway would feed
 * it (acquirer answers as the sandbox gives them), so the stored events are exactly what the
 * gateway writes. Only HTTP, hashing and the acquirer round trips are skipped, and the appends are
 * batched: many payments per `appendMultiple`. Time is simulated: payments arrive one every couple
 * of seconds, and their captures, refunds, voids and payer returns come minutes to days later,
 * interleaved with newer payments as they would be in a live store.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { newId } from '../application/new-id';
import { sandboxThreeDSResult, SANDBOX_DECLINE_REASONS } from '../adapters/connectors/sandbox';
import { toNewEvent } from '../application/command-handler';
import type { EventMetadata, EventStore, NewEvent, StreamWrite } from '../application/ports/event-store';
import { exactly, NO_STREAM } from '../application/ports/event-store';
import { detectBrand, maskPan } from '../domain/card';
import { formatMinor } from '../domain/money';
import { ORDER_EVENT_SCHEMA_VERSION, orderStreamId, type OrderIdReserved } from '../domain/order/order-reservation';
import type { AuthorizationResult, PaymentCommand } from '../domain/payment/commands';
import { decidePayment } from '../domain/payment/decide';
import { paymentEventSchemaVersion, paymentStreamId, type PaymentKind } from '../domain/payment/events';
import { evolvePayment, initialPaymentState, type PaymentState } from '../domain/payment/state';
import { flag, print, withGateway, type Parsed } from './args';
import { usageError, type CommandHelp } from './help';
import { startProgress } from './progress';

export interface SeedOptions {
  store: EventStore;
  /** At least this many events are written (the last payment's history is completed). */
  events: number;
  /** Merchants the payments belong to; they must exist for the read models to make sense. */
  merchantIds: string[];
  /** Simulated time of the first payment. Default: as far back as the payments take, ending now. */
  startAt?: Date;
  /** Source of randomness for the mix (not for ids). Default: a fixed seed, so runs look alike. */
  random?: () => number;
  /** Events per appendMultiple call. Default 50,000: the fewer commits, the fewer index pages written again. */
  eventsPerAppend?: number;
  onProgress?(written: number): void;
}

export interface SeedResult {
  events: number;
  payments: number;
  /** Payments per final status, e.g. `{ SETTLED: 1200, DECLINED: 180, ... }`. */
  byStatus: Record<string, number>;
}

const DESCRIPTOR = 'SANDBOX*GATEWAY';
const BASE_URL = 'http://127.0.0.1:8080';
/** Simulated gap between two new payments. */
const PAYMENT_EVERY_MS = 2_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const CARDS = ['4111111111111111', '5555555555554444', '4000056655665556', '5200828282828210', '378282246310005', '6011111111111117'];
const CURRENCIES: Array<{ code: string; weight: number; min: number; max: number }> = [
  { code: 'USD', weight: 40, min: 199, max: 45_000 },
  { code: 'EUR', weight: 30, min: 199, max: 40_000 },
  { code: 'GBP', weight: 15, min: 199, max: 35_000 },
  { code: 'JPY', weight: 10, min: 300, max: 60_000 },
  { code: 'KWD', weight: 5, min: 1_000, max: 150_000 },
];
const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'John', 'Radia', 'Ken'];
const LAST_NAMES = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Backus', 'Perlman', 'Thompson'];
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'NL', 'JP', 'KW', 'ES'];

type Scenario =
  | 'sale'
  | 'sale_refund'
  | 'sale_partial_refunds'
  | 'sale_void'
  | 'sale_declined'
  | 'auth_capture'
  | 'auth_partial_capture'
  | 'auth_capture_declined'
  | 'auth_reversal'
  | '3ds_settled'
  | '3ds_declined'
  | '3ds_abandoned'
  | 'redirect_settled'
  | 'redirect_declined'
  | 'outcome_unknown';

const SCENARIOS: Array<[Scenario, number]> = [
  ['sale', 36],
  ['sale_refund', 6],
  ['sale_partial_refunds', 2],
  ['sale_void', 4],
  ['sale_declined', 10],
  ['auth_capture', 12],
  ['auth_partial_capture', 3],
  ['auth_capture_declined', 2],
  ['auth_reversal', 4],
  ['3ds_settled', 8],
  ['3ds_declined', 3],
  ['3ds_abandoned', 2],
  ['redirect_settled', 4],
  ['redirect_declined', 2],
  ['outcome_unknown', 2],
];

/** A request to the gateway: the commands it runs and how many events they record. */
interface Step {
  at: number;
  events: number;
  commands(payment: SeededPayment, now: string): PaymentCommand[];
}

interface SeededPayment {
  id: string;
  state: PaymentState;
  version: bigint | null;
  steps: Step[];
  next: number;
}

/** Deterministic, so two seeded stores have the same mix. */
export function seededRandom(seed = 0x5eed): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Writes payment histories until at least `events` events are stored. */
export async function seedPayments(options: SeedOptions): Promise<SeedResult> {
  if (options.merchantIds.length === 0) throw new Error('seeding needs at least one merchant');
  const random = options.random ?? seededRandom();
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const between = (low: number, high: number): number => low + Math.floor(random() * (high - low + 1));
  const perAppend = Math.max(1, options.eventsPerAppend ?? 50_000);
  const expectedPayments = Math.ceil(options.events / 3.5);
  let clock = options.startAt?.getTime() ?? Date.now() - expectedPayments * PAYMENT_EVERY_MS;

  // Follow-ups waiting for their simulated time, soonest first.
  const queue = new MinQueue<SeededPayment>();
  let planned = 0;
  let written = 0;
  let payments = 0;
  const byStatus: Record<string, number> = {};
  let writes: StreamWrite[] = [];
  let pendingEvents = 0;

  const flush = async (): Promise<void> => {
    if (writes.length === 0) return;
    const batch = writes;
    writes = [];
    pendingEvents = 0;
    await options.store.appendMultiple(batch);
    written += batch.reduce((n, w) => n + w.events.length, 0);
    options.onProgress?.(written);
  };

  /** Runs a payment's next step through the decider and queues what it records. */
  const runStep = async (payment: SeededPayment): Promise<void> => {
    const step = payment.steps[payment.next++];
    const now = new Date(step.at).toISOString();
    const requestId = randomUUID();
    const metadata: EventMetadata = { correlationId: requestId, causationId: requestId };
    const recorded: NewEvent[] = [];
    for (const command of step.commands(payment, now)) {
      for (const event of decidePayment(command, payment.state)) {
        payment.state = evolvePayment(payment.state, event);
        recorded.push(toNewEvent(event, paymentEventSchemaVersion, metadata));
      }
    }
    if (recorded.length !== step.events) {
      throw new Error(`seeding: a step of payment ${payment.id} recorded ${recorded.length} events, ${step.events} planned`);
    }
    const streamId = paymentStreamId(payment.id);
    const expected = payment.version === null ? NO_STREAM : exactly(payment.version);
    if (payment.version === null) {
      // A SALE reserves its order id in the same append, as the gateway does.
      const s = payment.state.exists ? payment.state : null;
      if (!s) throw new Error('seeding: the first step must initiate the payment');
      const reservation: OrderIdReserved = {
        type: 'OrderIdReserved',
        data: { merchantId: s.merchantId, orderId: s.orderId, paymentId: payment.id, reservedAt: now },
      };
      writes.push({
        streamId: orderStreamId(s.merchantId, s.orderId),
        events: [toNewEvent(reservation, ORDER_EVENT_SCHEMA_VERSION, metadata)],
        expected: NO_STREAM,
      });
      pendingEvents += 1;
    }
    writes.push({ streamId, events: recorded, expected });
    pendingEvents += recorded.length;
    payment.version = (payment.version ?? -1n) + BigInt(recorded.length);
    planned -= step.events + (expected.kind === 'no_stream' ? 1 : 0);
    if (payment.next < payment.steps.length) {
      queue.push(payment.steps[payment.next].at, payment);
    } else {
      payments++;
      const status = payment.state.exists ? payment.state.status : 'NONE';
      byStatus[status] = (byStatus[status] ?? 0) + 1;
    }
    if (pendingEvents >= perAppend) await flush();
  };

  const newPayment = (merchantId: string, at: number): SeededPayment => {
    const scenario = weighted(random, SCENARIOS);
    const currency = weighted(
      random,
      CURRENCIES.map((c) => [c, c.weight] as const),
    );
    const amount = between(currency.min, currency.max);
    const pan = pick(CARDS);
    const first = pick(FIRST_NAMES);
    const last = pick(LAST_NAMES);
    const id = newId();
    const kind: PaymentKind = scenario.startsWith('auth') ? 'authorization' : 'sale';
    const expiry = expiryFor(scenario, random);
    const payer = {
      firstName: first,
      lastName: last,
      email: `${first}.${last}${between(1, 999)}@example.com`.toLowerCase(),
      phone: `+1555${String(between(0, 9_999_999)).padStart(7, '0')}`,
      country: pick(COUNTRIES),
      city: 'Springfield',
      address: `${between(1, 999)} Main Street`,
      zip: String(between(10_000, 99_999)),
      ip: `198.51.100.${between(1, 254)}`,
    };
    const initiate: PaymentCommand = {
      type: 'InitiatePayment',
      data: {
        paymentId: id,
        merchantId,
        channel: 's2s_card',
        kind,
        orderId: `order-${randomUUID()}`,
        orderDescription: `Order of ${between(1, 5)} items`,
        currency: currency.code,
        amount,
        amountText: formatMinor(amount, currency.code),
        card: { mask: maskPan(pan), brand: detectBrand(pan), expMonth: expiry.month, expYear: expiry.year, token: null },
        payer,
        termUrl3ds: 'https://shop.example/3ds-return',
        notificationUrl: null,
        customData: null,
        parameters: null,
        recurringInit: false,
        connector: 'sandbox',
        now: '',
      },
    };
    const steps = plan(scenario, at, amount, currency.code, initiate, { random, between, brand: detectBrand(pan) });
    return { id, state: initialPaymentState(), version: null, steps, next: 0 };
  };

  const addPayment = async (): Promise<void> => {
    const payment = newPayment(pick(options.merchantIds), clock);
    planned += payment.steps.reduce((n, s) => n + s.events, 0) + 1;
    await runStep(payment);
  };

  while (written + pendingEvents + planned < options.events) {
    clock += between(PAYMENT_EVERY_MS / 2, (PAYMENT_EVERY_MS * 3) / 2);
    while (queue.size > 0 && queue.peekKey()! <= clock) await runStep(queue.pop()!);
    await addPayment();
  }
  while (queue.size > 0) await runStep(queue.pop()!);
  await flush();
  return { events: written, payments, byStatus };
}

function weighted<T>(random: () => number, options: ReadonlyArray<readonly [T, number]>): T {
  const total = options.reduce((n, [, w]) => n + w, 0);
  let roll = random() * total;
  for (const [value, weight] of options) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return options[options.length - 1][0];
}

/** The sandbox picks the outcome by expiry (docs/reference/sandbox.md#cards-by-expiry). */
function expiryFor(scenario: Scenario, random: () => number): { month: string; year: string } {
  switch (scenario) {
    case 'sale_declined':
      return { month: '02', year: '2038' };
    case 'auth_capture_declined':
      return { month: '03', year: '2038' };
    case '3ds_settled':
    case '3ds_abandoned':
      return { month: '05', year: '2038' };
    case '3ds_declined':
      return { month: '06', year: '2038' };
    case 'redirect_settled':
      return { month: '12', year: '2038' };
    case 'redirect_declined':
      return { month: '12', year: '2039' };
    default:
      return random() < 0.7 ? { month: '01', year: '2038' } : { month: String(1 + Math.floor(random() * 12)).padStart(2, '0'), year: '2031' };
  }
}

const digits = (n: number): string => Array.from(randomBytes(n), (b) => String(b % 10)).join('');

function success(kind: PaymentKind): AuthorizationResult {
  return { outcome: 'success', descriptor: DESCRIPTOR, rrn: digits(12), ...(kind === 'sale' ? { arn: digits(23) } : {}) };
}

interface PlanTools {
  random: () => number;
  between(low: number, high: number): number;
  brand: string;
}

/** The requests one payment goes through, with their simulated times and event counts. */
function plan(
  scenario: Scenario,
  at: number,
  amount: number,
  currency: string,
  initiate: PaymentCommand & { type: 'InitiatePayment' },
  { between, brand }: PlanTools,
): Step[] {
  const kind = initiate.data.kind;
  const text = (minor: number) => formatMinor(minor, currency);
  /** The SALE request: the intent, then the acquirer's first answer. */
  const sale = (answer: AuthorizationResult): Step => ({
    at,
    events: 2,
    commands: (_p, now) => [
      { ...initiate, data: { ...initiate.data, now } },
      { type: 'RecordAuthorization', data: { result: answer, now } },
    ],
  });
  const later = (min: number, max: number, events: number, commands: Step['commands']): Step => ({
    at: at + between(min, max),
    events,
    commands,
  });
  const challenge = (p: SeededPayment): AuthorizationResult => ({
    outcome: 'challenge',
    acsUrl: `${BASE_URL}/sandbox/acs`,
    params: { PaReq: `${randomBytes(48).toString('base64url')}.${randomBytes(32).toString('base64url')}`, MD: p.id, TermUrl: `${BASE_URL}/payments/${p.id}/3ds-return` },
  });
  const browser = {
    colorDepth: 24,
    screenHeight: 1080,
    screenWidth: 1920,
    javaEnabled: false,
    javascriptEnabled: true,
    language: 'en-US',
    timezoneOffset: -60,
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
    acceptHeaders: 'text/html,application/xhtml+xml',
  };
  const followUp = (
    request: (operationId: string, now: string) => PaymentCommand,
    record: (operationId: string, now: string) => PaymentCommand,
  ): Step['commands'] => {
    return (_p, now) => {
      const operationId = newId();
      return [request(operationId, now), record(operationId, now)];
    };
  };
  const refund = (minor: number, outcome: 'success' | 'declined' = 'success') =>
    followUp(
      (operationId, now) => ({ type: 'RequestCreditVoid', data: { operationId, amount: minor, amountText: text(minor), refundsEnabled: true, now } }),
      (operationId, now) => ({
        type: 'RecordCreditVoid',
        data: { operationId, now, result: outcome === 'success' ? { outcome: 'success' } : { outcome: 'declined', reason: 'Refund declined by acquirer' } },
      }),
    );
  const capture = (minor: number | null, outcome: 'success' | 'declined') =>
    followUp(
      (operationId, now) => ({
        type: 'RequestCapture',
        data: { operationId, ...(minor === null ? {} : { amount: minor, amountText: text(minor) }), now },
      }),
      (operationId, now) => ({
        type: 'RecordCapture',
        data: {
          operationId,
          now,
          result: outcome === 'success' ? { outcome: 'success', arn: digits(23) } : { outcome: 'declined', reason: SANDBOX_DECLINE_REASONS.capture },
        },
      }),
    );

  switch (scenario) {
    case 'sale':
      return [sale(success(kind))];
    case 'sale_refund':
      return [sale(success(kind)), later(2 * HOUR, 48 * HOUR, 2, refund(amount))];
    case 'sale_partial_refunds': {
      const first = Math.max(1, Math.floor(amount / 3));
      return [sale(success(kind)), later(1 * HOUR, 12 * HOUR, 2, refund(first)), later(13 * HOUR, 40 * HOUR, 2, refund(first))];
    }
    case 'sale_void':
      return [
        sale(success(kind)),
        later(5 * MINUTE, 3 * HOUR, 2, followUp(
          (operationId, now) => ({ type: 'RequestVoid', data: { operationId, now } }),
          (operationId, now) => ({ type: 'RecordVoid', data: { operationId, now, result: { outcome: 'success' } } }),
        )),
      ];
    case 'sale_declined':
      return [sale({ outcome: 'declined', reason: SANDBOX_DECLINE_REASONS.issuer })];
    case 'auth_capture':
      return [sale(success(kind)), later(10 * MINUTE, 24 * HOUR, 2, capture(null, 'success'))];
    case 'auth_partial_capture':
      return [sale(success(kind)), later(10 * MINUTE, 24 * HOUR, 2, capture(Math.max(1, Math.floor(amount * 0.8)), 'success'))];
    case 'auth_capture_declined':
      return [sale(success(kind)), later(10 * MINUTE, 24 * HOUR, 2, capture(null, 'declined'))];
    case 'auth_reversal':
      return [sale(success(kind)), later(30 * MINUTE, 36 * HOUR, 2, refund(amount))];
    case '3ds_settled':
    case '3ds_declined': {
      const approved = scenario === '3ds_settled';
      const steps: Step[] = [
        { at, events: 2, commands: (p, now) => [{ ...initiate, data: { ...initiate.data, now } }, { type: 'RecordAuthorization', data: { result: challenge(p), now } }] },
        later(20_000, 3 * MINUTE, 1, (_p, now) => [
          {
            type: 'CompletePayerAction',
            data: {
              threeDS: sandboxThreeDSResult(approved, brand),
              browser,
              result: approved ? success(kind) : { outcome: 'declined', reason: SANDBOX_DECLINE_REASONS.threeDsFailed },
              now,
            },
          },
        ]),
      ];
      return steps;
    }
    case '3ds_abandoned':
      return [
        { at, events: 2, commands: (p, now) => [{ ...initiate, data: { ...initiate.data, now } }, { type: 'RecordAuthorization', data: { result: challenge(p), now } }] },
        later(15 * MINUTE, 16 * MINUTE, 1, (_p, now) => [
          { type: 'ExpirePayerAction', data: { now, reason: 'Payer did not complete 3-D Secure in time' } },
        ]),
      ];
    case 'redirect_settled':
    case 'redirect_declined': {
      const approved = scenario === 'redirect_settled';
      return [
        sale({ outcome: 'redirect', redirectUrl: `${BASE_URL}/sandbox/redirect/${initiate.data.paymentId}?sig=${randomBytes(32).toString('base64url')}` }),
        later(20_000, 4 * MINUTE, 1, (_p, now) => [
          {
            type: 'CompletePayerAction',
            data: { browser, result: approved ? success(kind) : { outcome: 'declined', reason: SANDBOX_DECLINE_REASONS.redirectFailed }, now },
          },
        ]),
      ];
    }
    case 'outcome_unknown':
      return [
        sale({ outcome: 'unknown', detail: 'acquirer call failed' }),
        // The reconciler asks the acquirer 30 s later and records what it says.
        later(30_000, 60_000, 1, (_p, now) => [{ type: 'RecordAuthorization', data: { result: success(kind), now } }]),
      ];
    default: {
      const unreachable: never = scenario;
      return unreachable;
    }
  }
}

/** A binary heap keyed by simulated time. */
class MinQueue<T> {
  private readonly keys: number[] = [];
  private readonly values: T[] = [];

  get size(): number {
    return this.keys.length;
  }

  peekKey(): number | undefined {
    return this.keys[0];
  }

  push(key: number, value: T): void {
    let i = this.keys.length;
    this.keys.push(key);
    this.values.push(value);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.keys[parent] <= key) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  pop(): T | undefined {
    if (this.keys.length === 0) return undefined;
    const top = this.values[0];
    const lastKey = this.keys.pop()!;
    const lastValue = this.values.pop()!;
    if (this.keys.length > 0) {
      this.keys[0] = lastKey;
      this.values[0] = lastValue;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < this.keys.length && this.keys[left] < this.keys[smallest]) smallest = left;
        if (right < this.keys.length && this.keys[right] < this.keys[smallest]) smallest = right;
        if (smallest === i) break;
        this.swap(i, smallest);
        i = smallest;
      }
    }
    return top;
  }

  private swap(a: number, b: number): void {
    [this.keys[a], this.keys[b]] = [this.keys[b], this.keys[a]];
    [this.values[a], this.values[b]] = [this.values[b], this.values[a]];
  }
}

export const seedHelp: CommandHelp = {
  name: 'seed',
  summary: 'write realistic payment histories straight into the event store (for trying the tools on volume)',
  usage: [
    'usage: npm run gateway -- seed --events N [--merchants M] [--json]',
    '',
    '  --events N     write at least N events',
    '  --merchants M  spread them over M new merchants, 1 to 1000 (default 5)',
    '  --json         print the summary as JSON',
  ].join('\n'),
};

export async function seedCommand(p: Parsed): Promise<void> {
  const eventsText = flag(p, 'events');
  if (!eventsText || !/^\d+$/.test(eventsText) || Number(eventsText) < 1) throw usageError(seedHelp, 'seed needs --events N (a positive integer)');
  const merchantsText = flag(p, 'merchants') ?? '5';
  if (!/^\d+$/.test(merchantsText) || Number(merchantsText) < 1 || Number(merchantsText) > 1000) {
    throw usageError(seedHelp, '--merchants must be an integer in 1..1000');
  }
  const json = p.flags.get('json') === true;
  const events = Number(eventsText);
  const started = performance.now();
  const result = await withGateway(async (g) => {
    const merchantIds: string[] = [];
    for (let i = 1; i <= Number(merchantsText); i++) {
      const created = await g.merchants.register({ name: `Seeded merchant ${i}`, paymentMode: 'SMS/DMS', refundsEnabled: true });
      merchantIds.push(created.merchant_id);
    }
    const target = Math.max(1, events - merchantIds.length);
    const progress = startProgress({ label: 'Seeding', unit: 'events', total: target, json });
    const seeded = await seedPayments({
      store: g.store,
      events: target,
      merchantIds,
      onProgress: (written) => progress.update(written),
    }).finally(() => progress.finish());
    return { ...seeded, events: seeded.events + merchantIds.length, merchants: merchantIds };
  }, { project: false, mayCreate: true });
  const seconds = (performance.now() - started) / 1000;
  print({ ...result, seconds: Math.round(seconds * 10) / 10 }, json, () =>
    [
      `Seeded ${result.events} events: ${result.payments} payments of ${result.merchants.length} merchants in ${seconds.toFixed(1)} s.`,
      `  final statuses: ${Object.entries(result.byStatus).map(([s, n]) => `${s} ${n}`).join(', ')}`,
    ].join('\n'),
  );
}
