/**
 * "Never lost" under a failing database. Given a notifier whose event store, merchant lookups,
 * delivery queries and checkpoint fail at random (seeded: refused, lost replies after a commit,
 * slow timeouts) while hundreds of payments settle, when the database heals, then every settled
 * payment has exactly one delivery and the merchant's receiver got each callback, under one
 * delivery id. Also when the notifier is stopped in the middle of the outage and another one
 * starts from the checkpoint it left: the checkpoint never moved past a callback not yet recorded.
 */
import { randomBytes } from 'node:crypto';
import { allProjectionNames } from '../../projections';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { workerCheckpoint } from '../../projections/worker-checkpoint';
import { Notifier, type NotifierCheckpoint } from '../../src/application/callbacks/notifier';
import type { DueCallbackDeliveries } from '../../src/application/ports/callback-deliveries-read-model';
import type { CallbackRequest, CallbackResponse, CallbackSender } from '../../src/application/ports/callback-sender';
import type { Logger } from '../../src/application/ports/logger';
import { buildGateway, type Gateway } from '../../src/composition';
import { loadConfig } from '../../src/config';
import { CallbackReceiver } from '../support/callback-receiver';
import { settledSale } from '../support/direct-sale';
import { FaultInjector, FlakyEventStore } from '../support/flaky-store';
import { TestClock } from '../support/gateway-harness';

const MINUTE = 60_000;
const FAULT_RATE = 0.3;

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Plain HTTP to the loopback receiver: what is under test is the notifier, not the sender. */
class LoopbackSender implements CallbackSender {
  async send(request: CallbackRequest): Promise<CallbackResponse> {
    const started = Date.now();
    try {
      const response = await fetch(request.url, {
        method: 'POST',
        headers: { 'content-type': request.contentType, ...request.headers },
        body: request.body,
        signal: AbortSignal.timeout(request.timeoutMs),
      });
      await response.arrayBuffer();
      return { statusCode: response.status, latencyMs: Date.now() - started, error: null, timedOut: false };
    } catch (error) {
      return { statusCode: null, latencyMs: Date.now() - started, error: String(error), timedOut: false };
    }
  }
  close(): void {}
}

/** The notifier's read-model port, failing whenever the injector says so. */
function flakyDueDeliveries(inner: DueCallbackDeliveries, faults: FaultInjector): DueCallbackDeliveries {
  return {
    due: (nowIso, limit) => faults.call('due', () => inner.due(nowIso, limit)),
    timeoutsSince: (url, sinceIso) => faults.call('timeoutsSince', () => inner.timeoutsSince(url, sinceIso)),
  };
}

function flakyNotifier(g: Gateway, clock: TestClock, faults: FaultInjector): Notifier {
  const checkpoint = workerCheckpoint(g.readDb, 'notifier');
  const flakyCheckpoint: NotifierCheckpoint = {
    load: () => faults.call('checkpoint load', () => checkpoint.load()),
    save: (position) => faults.call('checkpoint save', () => checkpoint.save(position)),
    trySave: (position) => faults.call('checkpoint save', () => checkpoint.trySave(position)),
  };
  return new Notifier({
    store: new FlakyEventStore(g.store, faults),
    merchants: { accountById: (id) => faults.call('merchant lookup', () => g.merchants.accountById(id)) },
    queries: flakyDueDeliveries(g.callbackQueries, faults),
    checkpoint: flakyCheckpoint,
    sender: new LoopbackSender(),
    clock,
    logger: quiet,
    settings: { ...g.config.callbacks, pollMs: 600_000 },
    // Short backoff, so a test does not wait out production's 30 s cap.
    retry: { initialMs: 5, maxMs: 100 },
  });
}

async function settleMany(g: Gateway, merchantId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) {
        next++;
        ids.push(await settledSale(g, merchantId));
      }
    }),
  );
  return ids;
}

/**
 * Once the database is healthy: lets every lease and retry fall due (moving the clock) until the
 * receiver has a 2xx for every payment, or gives up after a bounded number of rounds.
 */
async function deliverEverything(g: Gateway, notifier: Notifier, clock: TestClock, receiver: CallbackReceiver, payments: string[]): Promise<void> {
  // A notifier that stopped following the log shows up in the assertions, not as a timeout here.
  await notifier.catchUp(30_000).catch(() => undefined);
  for (let round = 0; round < 20; round++) {
    const delivered = new Set(receiver.received.filter((r) => r.answeredWith === 200).map((r) => r.fields.get('trans_id')));
    if (payments.every((id) => delivered.has(id))) return;
    await g.readModels.catchUpToHead(10_000, allProjectionNames());
    // Past any abandoned attempt's lease (timeout + 30 s) and the first retries' waits.
    clock.advance(5 * MINUTE);
    await notifier.runDue();
    await notifier.idle();
  }
}

/** Positions of PaymentSettled events that no CallbackScheduled reports yet, lowest first. */
async function settlementsWithoutDelivery(g: Gateway): Promise<bigint[]> {
  const events = await g.store.readAll();
  const reported = new Set(events.filter((e) => e.type === 'CallbackScheduled').map((e) => String(e.data.sourceEventId)));
  return events.filter((e) => e.type === 'PaymentSettled' && !reported.has(e.id)).map((e) => e.position);
}

async function assertEveryCallbackDeliveredOnce(g: Gateway, receiver: CallbackReceiver, payments: string[]): Promise<void> {
  const scheduled = new Map<string, number>();
  for (const event of await g.store.readAll()) {
    if (event.type !== 'CallbackScheduled') continue;
    const paymentId = String(event.data.paymentId);
    scheduled.set(paymentId, (scheduled.get(paymentId) ?? 0) + 1);
  }
  const unscheduled = payments.filter((id) => !scheduled.has(id));
  expect(unscheduled.length, `settled payments without a scheduled callback (e.g. ${unscheduled[0]})`).to.equal(0);
  const twice = payments.filter((id) => scheduled.get(id)! > 1);
  expect(twice.length, 'settled payments with more than one scheduled callback').to.equal(0);

  const missing: string[] = [];
  const severalIds: string[] = [];
  for (const id of payments) {
    const got = receiver.ofTransaction(id);
    if (!got.some((r) => r.answeredWith === 200)) missing.push(id);
    if (new Set(got.map((r) => r.deliveryId)).size > 1) severalIds.push(id);
  }
  expect(missing.length, `payments whose callback never reached the receiver (e.g. ${missing[0]})`).to.equal(0);
  expect(severalIds.length, 'payments whose callbacks came under more than one delivery id').to.equal(0);
}

describe('notifier on a failing database', function () {
  this.timeout(180_000);
  let dataDir: string;
  let g: Gateway;
  let receiver: CallbackReceiver;
  const notifiers: Notifier[] = [];

  beforeEach(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'gw-flaky-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      EVENT_STORE: 'sqlite',
      GATEWAY_ENV: 'sandbox',
      GATEWAY_LOG_LEVEL: 'silent',
      VAULT_KEY: randomBytes(32).toString('hex'),
    });
    g = await buildGateway(config, { withProjector: true, clock: new TestClock(), logger: quiet });
    await g.projector!.start();
    receiver = await new CallbackReceiver().start();
  });
  afterEach(async () => {
    for (const n of notifiers.splice(0)) await n.stop().catch(() => undefined);
    await g.close();
    await receiver.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('Given 30% of its database calls failing while 400 payments settle, when the database heals, then every payment is called back exactly once', async () => {
    const clock = new TestClock();
    const faults = new FaultInjector(FAULT_RATE, 20240611);
    const notifier = flakyNotifier(g, clock, faults);
    notifiers.push(notifier);
    const merchant = await g.merchants.register({ name: 'Flaky shop', notificationUrl: receiver.url });

    await notifier.start();
    const payments = await settleMany(g, merchant.merchant_id, 400);
    // Let the notifier work through the log while everything still fails now and then.
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    faults.failing = false;
    await deliverEverything(g, notifier, clock, receiver, payments);
    await assertEveryCallbackDeliveredOnce(g, receiver, payments);
    expect(faults.injected.refused + faults.injected['lost reply'] + faults.injected.slow, 'faults injected').to.be.greaterThan(100);
  });

  it('Given appends timing out, when the notifier is stopped in the middle of the outage and another starts from its checkpoint on the healed database, then no callback was skipped', async () => {
    const clock = new TestClock();
    // Reads answer, writes fail: the notifier keeps following the log while its appends fail.
    const faults = new FaultInjector(FAULT_RATE, 77, (what) => what === 'append' || what === 'appendMultiple');
    const first = flakyNotifier(g, clock, faults);
    notifiers.push(first);
    const merchant = await g.merchants.register({ name: 'Restarted shop', notificationUrl: receiver.url });

    await first.start();
    const payments = await settleMany(g, merchant.merchant_id, 150);
    // Then no write reaches the database at all for the next ones (had one committed with its reply
    // lost, every settlement might be recorded before the stop), and the notifier is stopped: it must not
    // wait for the database to come back, and its checkpoint must stay before every callback not
    // yet recorded.
    faults.rate = 1;
    faults.only = 'refused';
    payments.push(...(await settleMany(g, merchant.merchant_id, 150)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await first.stop();
    notifiers.pop();
    const checkpoint = await workerCheckpoint(g.readDb, 'notifier').load();
    const unrecorded = await settlementsWithoutDelivery(g);
    expect(unrecorded.length, 'settlements left unrecorded by the outage').to.be.greaterThan(0);
    expect(checkpoint === null || checkpoint < unrecorded[0], `checkpoint ${checkpoint} passes unrecorded settlement at ${unrecorded[0]}`).to.equal(true);

    faults.failing = false;
    faults.only = null;
    const second = flakyNotifier(g, clock, faults);
    notifiers.push(second);
    await second.start();
    await deliverEverything(g, second, clock, receiver, payments);
    await assertEveryCallbackDeliveredOnce(g, receiver, payments);
  });
});
