/**
 * Payment history: `GET /admin/payments/:id/history` in-process on each store, the pure as-of
 * rules, and `npm run gateway -- history` as a real process once.
 */
import path from 'node:path';
import { expect } from 'chai';
import { paymentAsOf, parseAsOf, type RecordedPaymentEvent } from '../../src/domain/payment/history';
import { foldPayment } from '../../src/domain/payment/state';
import type { PaymentEvent } from '../../src/domain/payment/events';
import { forEachStore, TEST_PAN, type TestGateway } from '../support/gateway-harness';
import { paymentInitiated, paymentSettled, T0, T1 } from '../support/payment-fixtures';
import { inProcessCliWithDataDir } from '../support/cli-in-process';


forEachStore('GET /admin/payments/:id/history', (h) => {
  const history = (id: string, query = '', token: string | null = h().gateway.adminToken) =>
    h().request(`/admin/payments/${encodeURIComponent(id)}/history${query}`, {
      headers: token === null ? {} : { Authorization: `Bearer ${token}` },
    });

  /** A DMS authorization captured in part: four events in two requests. */
  async function givenCapturedAuthorization(t: TestGateway) {
    const merchant = await t.createMerchant();
    const sale = await t.sale(merchant, { auth: 'Y', order_amount: '20.00' });
    expect(sale.body).to.include({ result: 'SUCCESS', status: 'PENDING' });
    const capture = await t.capture(merchant, sale.body.trans_id, '15.00');
    expect(capture.body).to.include({ result: 'SUCCESS' });
    return sale.body.trans_id as string;
  }

  it('lists every event in order with version, type, schema version, time, data and the request that caused it, then the current state', async function () {
    const id = await givenCapturedAuthorization(h());

    const res = await history(id);

    expect(res.status).to.equal(200);
    const stored = await h().paymentEvents(id);
    expect(res.body.payment_id).to.equal(id);
    expect(res.body.stream_id).to.equal(`payment-${id}`);
    expect(res.body.version).to.equal(3);
    expect(res.body.events.map((e: { type: string }) => e.type)).to.deep.equal([
      'PaymentInitiated',
      'PaymentAuthorized',
      'CaptureRequested',
      'CaptureSucceeded',
    ]);
    expect(res.body.events.map((e: { version: number }) => e.version)).to.deep.equal([0, 1, 2, 3]);
    res.body.events.forEach((e: Record<string, unknown>, i: number) => {
      expect(e).to.include({
        schema_version: stored[i].schemaVersion,
        recorded_at: stored[i].recordedAt,
        position: stored[i].position.toString(),
        correlation_id: stored[i].metadata.correlationId,
        causation_id: stored[i].metadata.causationId,
      });
      expect(e.data).to.deep.equal(stored[i].data);
    });
    // The sale and the capture were two requests.
    expect(res.body.events[0].causation_id).to.be.a('string').and.not.equal(res.body.events[2].causation_id);
    expect(res.body.as_of).to.equal(null);
    expect(res.body.state).to.include({ status: 'SETTLED', settledAmount: 1500, heldAmount: 0 });
    expect(res.text).to.not.contain(TEST_PAN);
  });

  it('folds the state up to a version, or up to a moment', async function () {
    const id = await givenCapturedAuthorization(h());
    const stored = await h().paymentEvents(id);

    const atAuthorization = await history(id, '?as_of=1');
    expect(atAuthorization.status).to.equal(200);
    expect(atAuthorization.body.as_of).to.deep.equal({ requested: '1', version: 1, recorded_at: stored[1].recordedAt });
    expect(atAuthorization.body.state).to.include({ status: 'PENDING', phase: 'authorized', heldAmount: 2000, settledAmount: 0 });
    expect(atAuthorization.body.events).to.have.length(4);

    const atCaptureRequest = await history(id, `?as_of=${encodeURIComponent(stored[2].recordedAt)}`);
    expect(atCaptureRequest.body.as_of.version).to.be.at.least(2);
    const before = await history(id, `?as_of=${encodeURIComponent(new Date(Date.parse(stored[0].recordedAt) - 1000).toISOString())}`);
    expect(before.status).to.equal(200);
    expect(before.body.as_of).to.include({ version: null, recorded_at: null });
    expect(before.body.state).to.equal(null);
  });

  it('answers an unknown payment with 404 in the API error shape', async function () {
    const res = await history('00000000-0000-4000-8000-000000000000');

    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'Payment not found.' });
  });

  it('answers an as_of that is neither a version nor a timestamp with 400', async function () {
    const id = await givenCapturedAuthorization(h());

    for (const bad of ['yesterday', '-1', '2024-05-01T10:00:00', '1.5']) {
      const res = await history(id, `?as_of=${encodeURIComponent(bad)}`);
      expect(res.status, bad).to.equal(400);
      expect(res.body).to.include({ result: 'ERROR', error_code: 100000 });
      expect(res.body.error_message).to.match(/^as_of: /);
    }
  });

  it('is closed without the admin token', async function () {
    const id = await givenCapturedAuthorization(h());

    expect((await history(id, '', null)).status).to.equal(401);
    expect((await history(id, '', 'not-the-token')).status).to.equal(401);
  });
});

describe('payment as of a point', function () {
  const initiated = paymentInitiated();
  const settled = paymentSettled(initiated.data.paymentId, { amount: initiated.data.amount });
  const recorded: RecordedPaymentEvent[] = [
    { version: 0n, recordedAt: T0, type: initiated.type, event: initiated },
    { version: 1n, recordedAt: T1, type: 'CallbackScheduled', event: null },
    { version: 2n, recordedAt: T1, type: settled.type, event: settled },
  ];

  it('reads digits as a version and ISO-8601 with a zone as a moment, and nothing else', function () {
    expect(parseAsOf('7')).to.deep.equal({ kind: 'version', version: 7n });
    expect(parseAsOf('2024-05-01T10:00:00.5+02:00')).to.deep.include({ kind: 'time', epochMs: Date.parse('2024-05-01T08:00:00.500Z') });
    expect(parseAsOf('2024-05-01')).to.deep.include({ kind: 'time', epochMs: Date.parse('2024-05-01T00:00:00Z') });
    for (const bad of ['', 'now', '-3', '2024-05-01 10:00', '2024-05-01T10:00:00', '2024-13-45T00:00:00Z']) expect(parseAsOf(bad), bad).to.equal(null);
  });

  it('folds up to and including the version or moment, passing over types the payment fold does not know', function () {
    expect(paymentAsOf(recorded, null)).to.deep.equal({ state: foldPayment([initiated, settled] as PaymentEvent[]), version: 2n });
    expect(paymentAsOf(recorded, { kind: 'version', version: 1n })).to.deep.equal({ state: foldPayment([initiated]), version: 1n });
    expect(paymentAsOf(recorded, parseAsOf(T0))).to.deep.equal({ state: foldPayment([initiated]), version: 0n });
    expect(paymentAsOf(recorded, parseAsOf('2024-04-30T00:00:00Z'))).to.deep.equal({ state: { exists: false }, version: null });
  });
});

describe('npm run gateway -- history', function () {
  this.timeout(120_000);
  const cli = inProcessCliWithDataDir('gateway-history-');

  it('prints a seeded payment\'s events and its state as of a version, as text and as JSON', async function () {
    expect((await cli('seed', '--events', '300', '--merchants', '1')).code).to.equal(0);
    // Any payment of the seeded store will do: take one that went through a follow-up.
    const events = (await import('better-sqlite3')).default;
    const file = new events(path.join(cli.dataDir, 'events.db'), { readonly: true });
    const { stream_id: streamId } = file
      .prepare("select stream_id from events where type = 'CaptureSucceeded' or type = 'RefundSucceeded' limit 1")
      .get() as { stream_id: string };
    file.close();
    const id = streamId.slice('payment-'.length);

    const json = await cli('history', id, '--as-of', '1', '--json');
    expect(json.code, json.stderr).to.equal(0);
    const body = JSON.parse(json.stdout);
    expect(body.events.length).to.be.at.least(3);
    expect(body.events[0]).to.include({ version: 0, type: 'PaymentInitiated' });
    expect(body.as_of).to.include({ requested: '1', version: 1 });
    expect(body.state.status).to.be.oneOf(['SETTLED', 'PENDING']);

    const text = await cli('history', id);
    expect(text.code).to.equal(0);
    expect(text.stdout).to.contain(`Payment ${id}`).and.to.contain('#0').and.to.contain('PaymentInitiated');

    const missing = await cli('history', 'no-such-payment');
    expect(missing.code).to.equal(1);
    expect(missing.stderr).to.contain('Payment not found');

    const bad = await cli('history', id, '--as-of', 'yesterday');
    expect(bad.code).to.equal(2);
  });
});
