/**
 * Runs a workload against the simulated world as a merchant, a payer, a provider and an operator
 * would, checking the invariants after every step and once everything has settled.
 */
import type { StoredEvent } from '../../src/application/ports/event-store';
import type { MerchantCredentials } from '../../src/application/merchant-service';
import { paymentDecider } from '../../src/domain/payment/decider';
import { paymentStreamId } from '../../src/domain/payment/events';
import type { ExistingPayment, PaymentState } from '../../src/domain/payment/state';
import { DomainError } from '../../src/domain/errors';
import { apmCreditvoidHash, apmSaleHash, createScheduleHash, credit2VirtualHash, orderIdHash, saleCardHash, transIdHash } from '../../src/domain/signatures';
import { sessionBody } from '../support/checkout-client';
import { InjectedFault } from '../support/flaky-store';
import { checkAtEnd, checkAfterStep, InvariantBroken, isOpen } from './invariants';
import { World, type WorldOptions } from './world';
import type { Step } from './workload';

export interface Told {
  step: number;
  action: string;
  status: number;
  body: Record<string, unknown>;
}

export interface SimPayment {
  transId: string;
  channel: 'card' | 'apm' | 'payout' | 'checkout';
  currency: string;
  told: Told[];
  recurringToken?: string;
}

export interface Model {
  merchant: MerchantCredentials;
  payments: Map<string, SimPayment>;
  /** Top-ups the operator made, by currency (minor units). */
  toppedUp: Map<string, number>;
  /** Notifications the provider owes or repeats, not yet delivered: provider references. */
  notifications: { connector: string; reference: string }[];
  /** Every answer the gateway gave, for the record of a failure. */
  answers: Told[];
  /** Checkout sessions made, in order. */
  sessions: string[];
  /** The schedule chains started by scheduled SALEs follow (daily, three automatic payments). */
  scheduleId: string | null;
  step: number;
}

export interface RunResult {
  seed: number;
  steps: number;
  ok: boolean;
  failure?: { step: number; invariant: string; detail: string; paymentId?: string; history?: string };
  stats: { payments: number; scheduled: number; checkout: number; events: number; callbacks: number; faults: number };
}

const PAYOUT_CURRENCY = 'USD';
const CARD = '4111111111111111';
const text = (minor: number): string => (minor / 100).toFixed(2);

export async function runWorkload(steps: Step[], options: WorldOptions): Promise<RunResult> {
  const world = new World(options);
  await world.start();
  let stepNo = -1;
  try {
    const merchant = await world.api.merchants.register({
      name: `Simulated merchant ${options.seed}`,
      paymentMode: 'SMS/DMS',
      notificationUrl: 'http://127.0.0.1:9/callbacks',
      connectors: ['sim-a', 'sim-b'],
    });
    const model: Model = { merchant, payments: new Map(), toppedUp: new Map(), notifications: [], answers: [], sessions: [], scheduleId: null, step: 0 };
    const schedule = await post(world, model, {
      action: 'CREATE_SCHEDULE',
      client_key: merchant.client_key,
      name: 'Daily',
      interval_length: '1',
      interval_unit: 'day',
      payments_count: '3',
      hash: createScheduleHash(merchant.password),
    });
    model.scheduleId = typeof schedule.body.schedule_id === 'string' ? schedule.body.schedule_id : null;
    if (!model.scheduleId) throw new Error(`the schedule was not made: ${JSON.stringify(schedule.body)}`);
    for (stepNo = 0; stepNo < steps.length; stepNo++) {
      model.step = stepNo;
      await perform(world, model, steps[stepNo]!);
      await world.runWorkers();
      await quietly(world, () => checkAfterStep(world, model));
    }
    stepNo = steps.length;
    await settleEverything(world, model);
    await checkAtEnd(world, model);
    const all = await world.api.store.readAll();
    const events = all.length;
    // Payments the merchant did not ask for there and then: the scheduler's.
    const scheduled = all.filter((e) => e.type === 'PaymentInitiated' && !model.payments.has((e.data as { paymentId: string }).paymentId)).length;
    const checkout = [...model.payments.values()].filter((p) => p.channel === 'checkout').length;
    return {
      seed: options.seed,
      steps: steps.length,
      ok: true,
      stats: { payments: model.payments.size, scheduled, checkout, events, callbacks: world.endpoint.received.length, faults: Object.values(world.faults.injected).reduce((a, b) => a + b, 0) },
    };
  } catch (error) {
    world.faults.failing = false;
    if (!(error instanceof InvariantBroken)) throw error;
    const history = error.paymentId ? await historyOf(world, error.paymentId) : undefined;
    return {
      seed: options.seed,
      steps: steps.length,
      ok: false,
      failure: { step: stepNo, invariant: error.invariant, detail: error.message, ...(error.paymentId ? { paymentId: error.paymentId } : {}), ...(history ? { history } : {}) },
      stats: { payments: 0, scheduled: 0, checkout: 0, events: 0, callbacks: world.endpoint.received.length, faults: 0 },
    };
  } finally {
    world.faults.failing = false;
    await world.stop();
  }
}

/** Runs `work` with the store's faults held off: the simulator's own reads are not the gateway's. */
export async function quietly<T>(world: World, work: () => Promise<T>): Promise<T> {
  const was = world.faults.failing;
  world.faults.failing = false;
  try {
    return await work();
  } finally {
    world.faults.failing = was;
  }
}

export async function foldPayment(world: World, paymentId: string): Promise<{ state: PaymentState; events: StoredEvent[] }> {
  const events = await quietly(world, () => world.api.store.readStream(paymentStreamId(paymentId)));
  const state = events.reduce((s, e) => paymentDecider.evolve(s, { type: e.type, data: e.data } as never), paymentDecider.initialState());
  return { state, events };
}

async function historyOf(world: World, paymentId: string): Promise<string> {
  const { events } = await foldPayment(world, paymentId);
  return events.map((e) => `  v${e.version} ${e.type} ${JSON.stringify(e.data)}`).join('\n');
}

async function post(world: World, model: Model, fields: Record<string, string>): Promise<Told> {
  const response = await fetch(`${world.baseUrl}/post`, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
  const raw = await response.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    body = { raw };
  }
  const told = { step: model.step, action: fields.action!, status: response.status, body };
  model.answers.push(told);
  const transId = typeof body.trans_id === 'string' ? body.trans_id : undefined;
  if (transId) model.payments.get(transId)?.told.push(told);
  return told;
}

function remember(model: Model, told: Told, channel: SimPayment['channel'], currency: string): void {
  const transId = told.body.trans_id;
  if (typeof transId !== 'string' || model.payments.has(transId)) return;
  model.payments.set(transId, {
    transId,
    channel,
    currency,
    told: [told],
    ...(typeof told.body.recurring_token === 'string' ? { recurringToken: told.body.recurring_token } : {}),
  });
}

/** Payments of the model whose folded state passes `test`, in a stable order. */
async function candidates(world: World, model: Model, test: (s: ExistingPayment, p: SimPayment) => boolean): Promise<SimPayment[]> {
  const out: SimPayment[] = [];
  for (const p of model.payments.values()) {
    const { state } = await foldPayment(world, p.transId);
    if (state.exists && test(state, p)) out.push(p);
  }
  return out;
}

const choose = <T>(items: T[], pick: number): T | undefined => (items.length === 0 ? undefined : items[Math.min(items.length - 1, Math.floor(pick * items.length))]);

async function perform(world: World, model: Model, step: Step): Promise<void> {
  const m = model.merchant;
  switch (step.op) {
    case 'sale': {
      const orderId = `sale-${model.step}`;
      const fields: Record<string, string> = {
        action: 'SALE',
        client_key: m.client_key,
        order_id: orderId,
        order_amount: text(step.amount),
        order_currency: step.currency,
        order_description: 'Simulated order',
        card_number: CARD,
        card_exp_month: '01',
        card_exp_year: '2038',
        card_cvv2: '123',
        payer_first_name: 'Sim',
        payer_last_name: 'Payer',
        payer_address: '1 Main Street',
        payer_country: 'US',
        payer_city: 'Springfield',
        payer_zip: '12345',
        payer_email: 'payer@example.com',
        payer_phone: '+15551234567',
        payer_ip: '198.51.100.7',
        term_url_3ds: 'https://merchant.example/3ds-return',
        ...(step.auth ? { auth: 'Y' } : { recurring_init: 'Y' }),
        ...(step.scheduled && model.scheduleId ? { schedule_id: model.scheduleId } : {}),
      };
      fields.hash = saleCardHash({ payerEmail: fields.payer_email, password: m.password, cardNumber: CARD });
      const sends = step.repeat === 'at-once' ? [post(world, model, fields), post(world, model, fields)] : [post(world, model, fields)];
      for (const told of await Promise.all(sends)) remember(model, told, 'card', step.currency);
      if (step.repeat === 'later') {
        world.clock.advance(1_000);
        remember(model, await post(world, model, fields), 'card', step.currency);
      }
      return;
    }
    case 'apm': {
      const fields: Record<string, string> = {
        action: 'SALE',
        client_key: m.client_key,
        brand: step.method,
        order_id: `apm-${model.step}`,
        order_amount: text(step.amount),
        order_currency: 'USD',
        order_description: 'Simulated APM order',
        identifier: 'payer-1',
        payer_ip: '198.51.100.7',
        return_url: 'https://merchant.example/apm-return',
      };
      fields.hash = apmSaleHash({ identifier: 'payer-1', orderId: fields.order_id!, orderAmount: fields.order_amount!, orderCurrency: 'USD', password: m.password });
      remember(model, await post(world, model, fields), 'apm', 'USD');
      return;
    }
    case 'recurring': {
      const chains = [...model.payments.values()].filter((p) => p.recurringToken);
      const chain = choose(chains, step.pick);
      if (!chain) return;
      const orderId = `rec-${model.step}`;
      const told = await post(world, model, {
        action: 'RECURRING_SALE',
        client_key: m.client_key,
        order_id: orderId,
        order_amount: text(step.amount),
        order_description: 'Simulated renewal',
        recurring_first_trans_id: chain.transId,
        recurring_token: chain.recurringToken!,
        hash: orderIdHash(orderId, m.password),
      });
      remember(model, told, 'card', chain.currency);
      return;
    }
    case 'checkout-session': {
      const body = sessionBody(m, {
        order: { number: `co-${model.step}`, amount: text(step.amount), currency: 'USD', description: 'Simulated Checkout order' },
        success_url: 'https://merchant.example/success',
        cancel_url: 'https://merchant.example/cancel',
        customer: { name: 'Sim Payer', email: 'payer@example.com' },
      });
      const response = await fetch(`${world.baseUrl}/api/v1/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const answer = (await response.json().catch(() => ({}))) as { redirect_url?: string };
      model.answers.push({ step: model.step, action: 'checkout session', status: response.status, body: answer });
      if (typeof answer.redirect_url === 'string') model.sessions.push(answer.redirect_url.split('/').pop()!);
      return;
    }
    case 'checkout-pay': {
      // The payer submits the hosted page's card form (again, after a decline: a retry).
      const sessionId = choose(model.sessions, step.pick);
      if (!sessionId) return;
      try {
        const outcome = await world.api.checkout.pay(
          sessionId,
          { card: { number: CARD, expMonth: '01', expYear: '2038', cvv: '123', holder: 'Sim Payer' }, payerIp: '203.0.113.7' },
          `checkout-${model.step}`,
        );
        if (outcome?.kind === 'done' && outcome.payment && !model.payments.has(outcome.payment.paymentId)) {
          const told: Told = { step: model.step, action: 'checkout pay', status: 200, body: { trans_id: outcome.payment.paymentId, status: outcome.payment.status } };
          model.answers.push(told);
          model.payments.set(outcome.payment.paymentId, { transId: outcome.payment.paymentId, channel: 'checkout', currency: 'USD', told: [told] });
        }
      } catch (error) {
        // A session paid, expired or busy refuses; a fault is the page's 500.
        if (!(error instanceof DomainError) && !(error instanceof InjectedFault && world.faults.failing)) throw error;
      }
      return;
    }
    case 'payer': {
      const waiting = [...world.provider.transactions.values()].filter((t) => t.awaitingPayer !== null || (t.truth !== null && t.kind === 'authorize'));
      const tx = choose(waiting.filter((t) => t.awaitingPayer !== null).length > 0 && step.pick < 0.8 ? waiting.filter((t) => t.awaitingPayer !== null) : waiting, step.pick);
      if (!tx) return;
      for (let i = 0; i < step.times; i++) {
        await fetch(`${tx.payerUrl ?? `${world.baseUrl}/payments/${tx.paymentId}/3ds-return?ref=${encodeURIComponent(tx.reference)}`}&result=${step.result}`, { redirect: 'manual' }).then((r) => r.arrayBuffer());
      }
      return;
    }
    case 'capture': {
      const target = choose(await candidates(world, model, (s) => s.phase === 'authorized'), step.pick);
      if (!target) return;
      const { state } = await foldPayment(world, target.transId);
      const amount = state.exists ? Math.max(1, Math.round(state.heldAmount * step.share)) : 1;
      await post(world, model, { action: 'CAPTURE', client_key: m.client_key, trans_id: target.transId, amount: text(amount), hash: transIdHash(target.transId, m.password) });
      return;
    }
    case 'void': {
      const target = choose(await candidates(world, model, (s, p) => p.channel === 'card' && (s.phase === 'settled' || s.phase === 'authorized')), step.pick);
      if (!target) return;
      await post(world, model, { action: 'VOID', client_key: m.client_key, trans_id: target.transId, hash: transIdHash(target.transId, m.password) });
      return;
    }
    case 'refunds': {
      const target = choose(await candidates(world, model, (s, p) => p.channel !== 'payout' && s.settledAmount > 0), step.pick);
      if (!target) return;
      const { state } = await foldPayment(world, target.transId);
      const settled = state.exists ? state.settledAmount : 0;
      const hash = target.channel === 'apm' ? apmCreditvoidHash(target.transId, m.password) : transIdHash(target.transId, m.password);
      await Promise.all(
        step.shares.map((share) =>
          post(world, model, { action: 'CREDITVOID', client_key: m.client_key, trans_id: target.transId, amount: text(Math.max(1, Math.round(settled * share))), hash }),
        ),
      );
      return;
    }
    case 'payouts': {
      const tolds = await Promise.all(
        step.amounts.map((amount, i) => {
          const orderId = `payout-${model.step}-${i}`;
          const fields: Record<string, string> = {
            action: 'CREDIT2VIRTUAL',
            client_key: m.client_key,
            brand: 'sim-payout',
            order_id: orderId,
            order_amount: text(amount),
            order_currency: PAYOUT_CURRENCY,
            order_description: 'Simulated payout',
            payee_first_name: 'Ama',
            payee_last_name: 'Mensah',
            payee_email: 'ama@example.com',
            'parameters[CustomerName]': 'Ama Mensah',
            'parameters[Email]': 'ama@example.com',
            'parameters[SecurityQuestion]': 'Name of your first pet?',
            'parameters[SecurityQuestionAnswer]': 'Kofi',
            'parameters[account_uuid]': '3f1c9a52-6d2e-4b7a-9c1e-2a4b6d8f0e13',
          };
          fields.hash = credit2VirtualHash({ orderId, orderAmount: fields.order_amount!, orderCurrency: PAYOUT_CURRENCY, password: m.password });
          return post(world, model, fields);
        }),
      );
      for (const told of tolds) remember(model, told, 'payout', PAYOUT_CURRENCY);
      return;
    }
    case 'top-up': {
      await world.api.payouts.topUp({ merchantId: m.merchant_id, currency: PAYOUT_CURRENCY, amount: step.amount, correlationId: `top-up-${model.step}` }).then(
        () => model.toppedUp.set(PAYOUT_CURRENCY, (model.toppedUp.get(PAYOUT_CURRENCY) ?? 0) + step.amount),
        (error: unknown) => {
          // A lost reply may have recorded it anyway: the operator cannot tell, and the invariants
          // count top-ups from the stream.
          if (!world.faults.failing) throw error;
        },
      );
      return;
    }
    case 'provider-decides': {
      const open = world.provider.undecidedPending(world.clock.now().getTime());
      // Or one decided already: the provider says it again (a late duplicate).
      const decided = [...world.provider.transactions.values()].filter((t) => t.pending && t.truth !== null);
      const tx = choose(open.length > 0 ? open : decided, step.pick);
      if (!tx) return;
      if (tx.truth === null) tx.truth = providerVerdict(world);
      for (let i = 0; i < step.copies; i++) model.notifications.push({ connector: tx.connector, reference: tx.reference });
      return;
    }
    case 'notifications': {
      // Delivered in an order of the seed's choosing, some held back for later.
      const queue = model.notifications.splice(0);
      const keyed = queue.map((n, i) => ({ n, key: step.order[i % step.order.length]! + i * 1e-6 })).sort((a, b) => a.key - b.key);
      const now = keyed.filter((k) => k.key < 0.8);
      model.notifications.push(...keyed.filter((k) => k.key >= 0.8).map((k) => k.n));
      for (const { n } of now) await deliverNotification(world, n);
      return;
    }
    case 'status': {
      const target = choose([...model.payments.values()], step.pick);
      if (!target) return;
      const hash = transIdHash(target.transId, m.password);
      await post(world, model, { action: 'GET_TRANS_STATUS', client_key: m.client_key, trans_id: target.transId, hash });
      return;
    }
    case 'advance':
      world.clock.advance(step.ms);
      return;
    case 'restart-workers':
      await world.restartWorkers();
      return;
    case 'store-faults':
      world.faults.failing = step.on;
      return;
    case 'endpoint':
      world.endpoint.down = step.down;
      return;
    default: {
      const unreachable: never = step;
      return unreachable;
    }
  }
}

async function deliverNotification(world: World, n: { connector: string; reference: string }): Promise<void> {
  await fetch(`${world.baseUrl}/notifications/${n.connector}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ reference: n.reference, signature: `signed:${n.reference}` }),
  }).then((r) => r.arrayBuffer());
}

/**
 * The end of the day: faults healed, the endpoint up, every payer who will act has acted, the
 * provider has decided everything and said so, and the clock runs past every deadline and every
 * callback retry, with the workers running at each stop. Callbacks that failed for good (their
 * retries used up while the endpoint was down) are redelivered, as an operator would.
 */
async function settleEverything(world: World, model: Model): Promise<void> {
  world.faults.failing = false;
  world.endpoint.down = false;
  for (const n of model.notifications.splice(0)) await deliverNotification(world, n);
  await providerDecidesWhatItOwes(world);
  for (const ms of [60_000, 16 * 60_000, 60 * 60_000, 3 * 3600_000, 13 * 3600_000, 26 * 3600_000]) {
    world.clock.advance(ms);
    await world.runWorkers();
    await world.runWorkers();
  }
  // What the last stops started (a scheduled payment whose answer was lost, a callback to retry) gets
  // its own deadlines too: the clock goes on in short steps, then longer ones, until nothing is open.
  for (let round = 0; round < 40 && ((await anythingOpen(world, model)) || (await callbacksOutstanding(world))); round++) {
    await redeliverFailedCallbacks(world, model);
    await providerDecidesWhatItOwes(world);
    world.clock.advance(round < 10 ? 20 * 60_000 : 3 * 3600_000);
    await world.runWorkers();
  }
}

/** What the provider decides of a pending transaction: mostly that it is paid. */
const providerVerdict = (world: World): 'success' | 'declined' => (world.random.chance(0.7) ? 'success' : 'declined');

/** The provider decides every pending transaction it still may, and notifies each once. */
async function providerDecidesWhatItOwes(world: World): Promise<void> {
  for (const tx of world.provider.undecidedPending(world.clock.now().getTime())) {
    tx.truth = providerVerdict(world);
    await deliverNotification(world, { connector: tx.connector, reference: tx.reference });
  }
}

/**
 * A callback scheduled that the merchant has not acknowledged yet, or that the gateway does not know
 * was delivered (the merchant's answer came too late for it).
 */
async function callbacksOutstanding(world: World): Promise<boolean> {
  const acknowledged = new Set(world.endpoint.received.filter((r) => r.acknowledged).map((r) => r.deliveryId));
  const delivered = new Map<string, boolean>();
  for (const e of await world.api.store.readAll()) {
    const { deliveryId } = e.data as { deliveryId?: string };
    if (deliveryId === undefined || !e.type.startsWith('Callback')) continue;
    if (e.type === 'CallbackScheduled' || e.type === 'CallbackRedeliveryRequested') delivered.set(deliveryId, false);
    if (e.type === 'CallbackDelivered') delivered.set(deliveryId, true);
  }
  return [...delivered].some(([deliveryId, done]) => !done || !acknowledged.has(deliveryId));
}

/**
 * What an operator does once the merchant's endpoint is back: lists the merchant's callbacks that
 * failed for good on the admin API and redelivers each, which gives it a fresh round of retries.
 */
async function redeliverFailedCallbacks(world: World, model: Model): Promise<void> {
  const headers = { authorization: `Bearer ${world.api.adminToken}` };
  const listing = await fetch(`${world.baseUrl}/admin/callbacks?merchant_id=${model.merchant.merchant_id}&failed=true&limit=1000`, { headers });
  if (listing.status !== 200) throw new Error(`the admin API did not list the failed callbacks: ${listing.status} ${await listing.text()}`);
  const { deliveries } = (await listing.json()) as { deliveries: { delivery_id: string; status: string }[] };
  for (const d of deliveries.filter((d) => d.status === 'failed')) {
    const answer = await fetch(`${world.baseUrl}/admin/callbacks/${d.delivery_id}/redeliver`, { method: 'POST', headers });
    if (answer.status !== 200) throw new Error(`the admin API did not redeliver ${d.delivery_id}: ${answer.status} ${await answer.text()}`);
  }
}

async function anythingOpen(world: World, model: Model): Promise<boolean> {
  const all = await world.api.store.readAll();
  for (const e of all) {
    if (e.type !== 'PaymentInitiated' || (e.data as { merchantId: string }).merchantId !== model.merchant.merchant_id) continue;
    const { state } = await foldPayment(world, (e.data as { paymentId: string }).paymentId);
    if (state.exists && isOpen(state)) return true;
  }
  return false;
}
