/**
 * A merchant hears of one payment's changes in the order they happened: a cascaded SALE's declined
 * attempt, then its settlement. The notifier schedules callbacks concurrently, so the first attempt
 * of a payment's next callback waits until the one before it has had its answer.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deliveryIdFor } from '../../src/application/callbacks/delivery-id';
import { Notifier } from '../../src/application/callbacks/notifier';
import type { CallbackRequest, CallbackResponse } from '../../src/application/ports/callback-sender';
import type { Logger } from '../../src/application/ports/logger';
import { buildGateway, type Gateway } from '../../src/composition';
import { loadConfig } from '../../src/config';
import { callbackStreamId } from '../../src/domain/callback-delivery/events';
import { paymentStreamId } from '../../src/domain/payment/events';
import { directSale } from '../support/direct-sale';
import { TestClock } from '../support/gateway-harness';

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const OK: CallbackResponse = { statusCode: 200, latencyMs: 1, error: null, timedOut: false };

async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('notifier: one payment’s callbacks in order', function () {
  this.timeout(20_000);
  let dataDir = '';
  let g: Gateway;
  let notifier: Notifier | undefined;
  /** Answers the sender still owes: a failed test must not leave the notifier's stop waiting on them. */
  const answers: Array<() => void> = [];

  beforeEach(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'gw-callback-order-'));
    const config = loadConfig({ DATA_DIR: dataDir, EVENT_STORE: 'sqlite', GATEWAY_ENV: 'sandbox', GATEWAY_LOG_LEVEL: 'silent', VAULT_KEY: randomBytes(32).toString('hex') });
    g = await buildGateway(config, { withProjector: false, clock: new TestClock(), logger: quiet });
  });

  afterEach(async () => {
    for (const answer of answers.splice(0)) answer();
    await notifier?.stop();
    await g.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('Given a cascaded SALE whose declined attempt is still on the wire, then its settlement is sent only after that attempt is answered', async () => {
    const sent: CallbackRequest[] = [];
    notifier = new Notifier({
      store: g.store,
      merchants: g.merchants,
      queries: g.callbackQueries,
      checkpoint: { load: async () => null, save: async () => undefined, trySave: async () => true },
      sender: {
        send: (request) => {
          sent.push(request);
          return new Promise((resolve) => answers.push(() => resolve(OK)));
        },
        close: () => undefined,
      },
      clock: new TestClock(),
      logger: quiet,
      settings: { ...g.config.callbacks, pollMs: 600_000 },
    });
    const merchant = await g.merchants.register({ name: 'Routed shop', connectors: ['sandbox-b', 'sandbox'], notificationUrl: 'https://shop.example/callbacks' });
    await notifier.start();
    const result = await directSale(g, merchant.merchant_id, {
      connectors: ['sandbox-b', 'sandbox'],
      // sandbox-b declines 04/2038 softly, and the sandbox settles it.
      card: { kind: 'number', number: '4111111111111111', expMonth: '04', expYear: '2038', cvv: '123' },
    });
    expect(result.payment.status).to.equal('SETTLED');
    const events = await g.store.readStream(paymentStreamId(result.payment.paymentId));
    expect(events.map((e) => e.type)).to.deep.equal(['PaymentInitiated', 'PaymentCascaded', 'PaymentSettled']);
    const settledDelivery = callbackStreamId(deliveryIdFor(events[2]!.id));

    // Both callbacks are scheduled (each with its first attempt claimed) while the first is unanswered.
    await until(async () => (await g.store.readStream(settledDelivery)).length > 0, 'the settlement’s callback to be scheduled');
    await until(() => sent.length > 0, 'the first callback to be sent');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sent.map((r) => new URLSearchParams(r.body).get('status'))).to.deep.equal(['DECLINED']);

    answers.shift()!();
    await until(() => sent.length === 2, 'the second callback to be sent');
    answers.shift()!();
    await notifier.catchUp();

    expect(sent.map((r) => new URLSearchParams(r.body).get('status'))).to.deep.equal(['DECLINED', 'SETTLED']);
    expect((await g.store.readStream(settledDelivery)).map((e) => e.type)).to.deep.equal(['CallbackScheduled', 'CallbackAttemptStarted', 'CallbackDelivered']);
  });
});
