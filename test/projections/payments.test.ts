import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { evolvePayment, foldPayment } from '../../src/domain/payment/state';
import type { PaymentEvent } from '../../src/domain/payment/events';
import {
  T0,
  T1,
  T2,
  T3,
  appendPaymentEvents,
  captureDeclined,
  captureRequested,
  captureSucceeded,
  creditVoid,
  paymentAuthorized,
  paymentDeclined,
  paymentInitiated,
  paymentOutcomeUnknown,
  paymentSettled,
  paymentVoided,
  payerRedirectRequired,
  threeDSChallengeRequired,
  voidDeclined,
  voidRequested,
} from '../support/payment-fixtures';
import { transactionsProjection } from '../../projections/transactions/module';
import { paymentsProjection } from '../../projections/payments/module';
import { projectionSpec, rowsOf } from '../support/projection-spec';
import { forEachDialect } from './harness';

forEachDialect('payments and operations read models', (fixture) => {
  /** Given these events of one payment, when the projector catches up. */
  async function given(events: PaymentEvent[]): Promise<string> {
    const paymentId = (events[0] as Extract<PaymentEvent, { type: 'PaymentInitiated' }>).data.paymentId;
    await appendPaymentEvents(fixture().store, paymentId, events);
    await fixture().projector.catchUp();
    return paymentId;
  }

  it('projects a settled sale: SETTLED, amounts, card and payer fields, one successful sale operation', async function () {
    const initiated = paymentInitiated({ orderId: 'order-42', amount: 1999, amountText: '19.99' });
    const id = await given([initiated, paymentSettled(initiated.data.paymentId, { amount: 1999, descriptor: 'SHOP*42' })]);

    const payment = await fixture().readModels.paymentById(id);
    expect(payment).to.include({
      paymentId: id,
      merchantId: 'merchant-1',
      orderId: 'order-42',
      channel: 's2s_card',
      kind: 'sale',
      status: 'SETTLED',
      phase: 'settled',
      currency: 'USD',
      amount: 1999,
      amountText: '19.99',
      heldAmount: 0,
      settledAmount: 1999,
      refundedAmount: 0,
      reversedAmount: 0,
      descriptor: 'SHOP*42',
      declineReason: null,
      cardMask: '411111******1111',
      cardBrand: 'VISA',
      cardExpMonth: '12',
      cardExpYear: '2030',
      cardToken: null,
      payerEmail: 'ada@example.com',
      termUrl3ds: 'https://shop.example.com/3ds-return',
      notificationUrl: 'https://shop.example.com/notify',
      redirectUrl: null,
      redirectParams: null,
      initiatedAt: T0,
      updatedAt: T1,
      streamVersion: 1,
    });
    // The stored state is exactly what the domain fold says.
    expect(payment!.state).to.deep.equal(foldPayment([initiated, paymentSettled(id, { amount: 1999, descriptor: 'SHOP*42' })]));

    const operations = await fixture().readModels.operationsOfPayment(id);
    expect(operations).to.deep.equal([
      {
        operationId: id,
        paymentId: id,
        merchantId: 'merchant-1',
        orderId: 'order-42',
        type: 'sale',
        status: 'success',
        amount: 1999,
        currency: 'USD',
        reason: null,
        payerAction: null,
        createdAt: T0,
        updatedAt: T1,
      },
    ]);
  });

  it('projects an authorization then a partial capture', async function () {
    const initiated = paymentInitiated({ kind: 'authorization', amount: 1000 });
    const id = initiated.data.paymentId;
    const captureId = randomUUID();
    await given([initiated, paymentAuthorized(id, { amount: 1000 })]);

    const authorized = await fixture().readModels.paymentById(id);
    expect(authorized).to.include({ kind: 'authorization', status: 'PENDING', phase: 'authorized', heldAmount: 1000, settledAmount: 0 });

    await appendPaymentEvents(fixture().store, id, [
      captureRequested(id, { operationId: captureId, amount: 600, amountText: '6.00' }),
      captureSucceeded(id, { operationId: captureId, amount: 600, amountText: '6.00' }),
    ]);
    await fixture().projector.catchUp();

    const captured = await fixture().readModels.paymentById(id);
    expect(captured).to.include({ status: 'SETTLED', phase: 'settled', heldAmount: 0, settledAmount: 600, amount: 1000, streamVersion: 3 });
    const operations = await fixture().readModels.operationsOfPayment(id);
    expect(operations.map((o) => [o.operationId, o.type, o.status, o.amount, o.createdAt])).to.deep.equal([
      [id, 'authorization', 'success', 1000, T0],
      [captureId, 'capture', 'success', 600, T2],
    ]);
  });

  it('records a declined capture as its own operation and leaves the hold in place', async function () {
    const initiated = paymentInitiated({ kind: 'authorization' });
    const id = initiated.data.paymentId;
    const captureId = randomUUID();
    await given([
      initiated,
      paymentAuthorized(id),
      captureRequested(id, { operationId: captureId }),
      captureDeclined(id, { operationId: captureId, reason: 'Authorization expired' }),
    ]);

    expect(await fixture().readModels.paymentById(id)).to.include({ status: 'PENDING', heldAmount: 1000, settledAmount: 0 });
    const [, capture] = await fixture().readModels.operationsOfPayment(id);
    expect(capture).to.include({ operationId: captureId, type: 'capture', status: 'declined', reason: 'Authorization expired' });
  });

  it('projects a 3DS challenge with its redirect url and params, then the settlement', async function () {
    const initiated = paymentInitiated();
    const id = initiated.data.paymentId;
    const challenge = threeDSChallengeRequired(id, {
      acsUrl: 'https://acs.example.com/pareq',
      params: { PaReq: 'eJxVUt1ugj', MD: 'md-1', TermUrl: 'https://gateway.example.com/3ds/return/1' },
    });
    await given([initiated, challenge]);

    expect(await fixture().readModels.paymentById(id)).to.deep.include({
      status: '3DS',
      phase: 'awaiting_3ds',
      redirectUrl: 'https://acs.example.com/pareq',
      redirectParams: { PaReq: 'eJxVUt1ugj', MD: 'md-1', TermUrl: 'https://gateway.example.com/3ds/return/1' },
    });
    expect(await fixture().readModels.operationsOfPayment(id)).to.have.length(1);
    expect((await fixture().readModels.operationsOfPayment(id))[0]).to.include({ type: 'sale', status: 'pending', payerAction: '3ds' });

    await appendPaymentEvents(fixture().store, id, [paymentSettled(id, { settledAt: T2 })]);
    await fixture().projector.catchUp();

    expect(await fixture().readModels.paymentById(id)).to.include({
      status: 'SETTLED',
      redirectUrl: null,
      redirectParams: null,
      settledAmount: 1000,
      updatedAt: T2,
    });
    expect((await fixture().readModels.operationsOfPayment(id))[0]).to.include({ status: 'success', payerAction: '3ds', updatedAt: T2 });
  });

  it('keeps SETTLED after a partial refund and turns REFUND after the full refund', async function () {
    const initiated = paymentInitiated({ amount: 1000 });
    const id = initiated.data.paymentId;
    const partial = creditVoid(id, 'refund', 300);
    await given([initiated, paymentSettled(id), ...partial]);

    expect(await fixture().readModels.paymentById(id)).to.include({ status: 'SETTLED', refundedAmount: 300, settledAmount: 1000 });

    const rest = creditVoid(id, 'refund', 700);
    await appendPaymentEvents(fixture().store, id, rest);
    await fixture().projector.catchUp();

    expect(await fixture().readModels.paymentById(id)).to.include({ status: 'REFUND', phase: 'refunded', refundedAmount: 1000 });
    const operations = await fixture().readModels.operationsOfPayment(id);
    expect(operations.map((o) => [o.type, o.status, o.amount])).to.deep.equal([
      ['sale', 'success', 1000],
      ['refund', 'success', 300],
      ['refund', 'success', 700],
    ]);
    expect(operations[1].operationId).to.equal((partial[0].data as { operationId: string }).operationId);
    expect(operations[1]).to.include({ createdAt: T3, updatedAt: T3 });
  });

  it('shows a refund as pending while the acquirer has not answered, and declined with its reason', async function () {
    const initiated = paymentInitiated();
    const id = initiated.data.paymentId;
    const [requested, declined] = creditVoid(id, 'refund', 1000, 'declined');
    await given([initiated, paymentSettled(id), requested]);

    expect((await fixture().readModels.operationsOfPayment(id))[1]).to.include({ type: 'refund', status: 'pending', reason: null });
    expect((await fixture().readModels.paymentById(id))!.state.pendingOperation).to.include({ kind: 'refund', amount: 1000 });

    await appendPaymentEvents(fixture().store, id, [declined]);
    await fixture().projector.catchUp();

    expect((await fixture().readModels.operationsOfPayment(id))[1]).to.include({
      type: 'refund',
      status: 'declined',
      reason: 'Refund window closed',
    });
    expect(await fixture().readModels.paymentById(id)).to.include({ status: 'SETTLED', refundedAmount: 0 });
  });

  it('projects a void, after a void the acquirer declined', async function () {
    const initiated = paymentInitiated({ kind: 'authorization' });
    const id = initiated.data.paymentId;
    const first = randomUUID();
    const second = randomUUID();
    await given([
      initiated,
      paymentAuthorized(id),
      voidRequested(id, { operationId: first }),
      voidDeclined(id, { operationId: first, reason: 'Try again later' }),
      voidRequested(id, { operationId: second, requestedAt: T3 }),
      paymentVoided(id, { operationId: second, voidedAt: T3 }),
    ]);

    expect(await fixture().readModels.paymentById(id)).to.include({ status: 'VOID', phase: 'voided', updatedAt: T3 });
    const operations = await fixture().readModels.operationsOfPayment(id);
    expect(operations.map((o) => [o.operationId, o.type, o.status, o.reason])).to.deep.equal([
      [id, 'authorization', 'success', null],
      [first, 'void', 'declined', 'Try again later'],
      [second, 'void', 'success', null],
    ]);
  });

  it('finds payments by order, newest first, and the latest one', async function () {
    const store = fixture().store;
    const first = paymentInitiated({ orderId: 'order-7', initiatedAt: '2024-05-01T09:00:00.000Z' });
    const second = paymentInitiated({ orderId: 'order-7', initiatedAt: '2024-05-01T10:00:00.000Z' });
    // Same instant as the second: the one recorded later is the newer.
    const third = paymentInitiated({ orderId: 'order-7', initiatedAt: '2024-05-01T10:00:00.000Z' });
    const otherMerchant = paymentInitiated({ orderId: 'order-7', merchantId: 'merchant-2', initiatedAt: '2024-05-02T00:00:00.000Z' });
    for (const e of [first, second, third, otherMerchant]) await appendPaymentEvents(store, e.data.paymentId, [e]);
    await fixture().projector.catchUp();

    const found = await fixture().readModels.paymentsByOrder('merchant-1', 'order-7', 10);
    expect(found.map((p) => p.paymentId)).to.deep.equal([third.data.paymentId, second.data.paymentId, first.data.paymentId]);
    expect((await fixture().readModels.paymentsByOrder('merchant-1', 'order-7', 2)).length).to.equal(2);
    expect((await fixture().readModels.latestPaymentByOrder('merchant-1', 'order-7'))!.paymentId).to.equal(third.data.paymentId);
    expect((await fixture().readModels.latestPaymentByOrder('merchant-2', 'order-7'))!.paymentId).to.equal(otherMerchant.data.paymentId);
    expect(await fixture().readModels.latestPaymentByOrder('merchant-1', 'no-such-order')).to.equal(undefined);
    expect(await fixture().readModels.paymentById('no-such-payment')).to.equal(undefined);
  });

  it('folds a whole life cycle within one batch exactly as the domain fold does', async function () {
    const initiated = paymentInitiated({ kind: 'sale', amount: 5000, amountText: '50.00' });
    const id = initiated.data.paymentId;
    const events: PaymentEvent[] = [
      initiated,
      threeDSChallengeRequired(id),
      paymentSettled(id, { amount: 5000 }),
      ...creditVoid(id, 'refund', 1000),
      ...creditVoid(id, 'refund', 500, 'declined'),
      ...creditVoid(id, 'refund', 4000),
    ];
    await given(events);

    const payment = await fixture().readModels.paymentById(id);
    const expected = events.reduce(evolvePayment, { exists: false });
    expect(payment!.state).to.deep.equal(expected);
    expect(payment).to.include({ status: 'REFUND', refundedAmount: 5000, streamVersion: events.length - 1 });
    expect((await fixture().readModels.operationsOfPayment(id)).map((o) => o.status)).to.deep.equal([
      'success',
      'success',
      'declined',
      'success',
    ]);
  });
});

describe('payments and operations rows, event by event', function () {
  const payments = projectionSpec(paymentsProjection());
  const operations = projectionSpec(transactionsProjection());
  const operationColumns = ['operation_id', 'type', 'status', 'amount', 'reason', 'payer_action', 'created_at', 'updated_at'];

  it('Given a sale the acquirer declined, then the payment is DECLINED with its reason and its sale operation declined', async function () {
    const initiated = paymentInitiated();
    const id = initiated.data.paymentId;
    const events = [initiated, paymentDeclined(id, { reason: 'Do not honor' })];

    await payments
      .given(events)
      .then(rowsOf('payments', ['payment_id', 'status', 'phase', 'decline_reason', 'settled_amount', 'stream_version', 'initiated_position']), [
        { payment_id: id, status: 'DECLINED', phase: 'declined', decline_reason: 'Do not honor', settled_amount: 0, stream_version: 1, initiated_position: 1 },
      ]);
    await operations.given(events).then(rowsOf('transactions'), [
      {
        operation_id: id,
        payment_id: id,
        merchant_id: 'merchant-1',
        order_id: initiated.data.orderId,
        type: 'sale',
        status: 'declined',
        amount: 1000,
        currency: 'USD',
        reason: 'Do not honor',
        payer_action: null,
        created_at: T0,
        updated_at: T1,
        created_position: 1,
      },
    ]);
  });

  it('Given a payer redirect with no parameters, then the payment is REDIRECT with its URL and an empty parameter set, its operation pending on the payer', async function () {
    const initiated = paymentInitiated();
    const id = initiated.data.paymentId;
    const events = [initiated, payerRedirectRequired(id, { redirectUrl: 'https://bank.example.com/ok?x=1' })];

    await payments
      .given(events)
      .then(rowsOf('payments', ['status', 'phase', 'redirect_url', 'redirect_params']), [
        { status: 'REDIRECT', phase: 'awaiting_redirect', redirect_url: 'https://bank.example.com/ok?x=1', redirect_params: '{}' },
      ]);
    await operations
      .given(events)
      .then(rowsOf('transactions', ['status', 'payer_action', 'updated_at']), [{ status: 'pending', payer_action: 'redirect', updated_at: T1 }]);
  });

  it('Given the acquirer answer was lost, then the payment is PENDING with outcome unknown and its operation unknown, with the detail reconciliation needs', async function () {
    const initiated = paymentInitiated();
    const id = initiated.data.paymentId;
    const events = [initiated, paymentOutcomeUnknown(id, { detail: 'read timeout' })];

    await payments.given(events).then(rowsOf('payments', ['status', 'phase']), [{ status: 'PENDING', phase: 'outcome_unknown' }]);
    await operations.given(events).then(rowsOf('transactions', ['status', 'reason']), [{ status: 'unknown', reason: 'read timeout' }]);
  });

  it('Given an authorization reversed in full, then the payment is REVERSAL with its hold released, and the reversal is an operation of its own', async function () {
    const initiated = paymentInitiated({ kind: 'authorization' });
    const id = initiated.data.paymentId;
    const reversal = creditVoid(id, 'reversal', 1000);
    const reversalId = (reversal[0].data as { operationId: string }).operationId;
    const events = [initiated, paymentAuthorized(id), ...reversal];

    await payments
      .given(events)
      .then(rowsOf('payments', ['status', 'phase', 'held_amount', 'reversed_amount', 'stream_version']), [
        { status: 'REVERSAL', phase: 'reversed', held_amount: 0, reversed_amount: 1000, stream_version: 3 },
      ]);
    // Ordered by operation id: the payment's own row and the reversal's, whichever id sorts first.
    const rows = await operations.given(events).rows(rowsOf('transactions', operationColumns));
    expect(rows).to.have.deep.members([
      { operation_id: id, type: 'authorization', status: 'success', amount: 1000, reason: null, payer_action: null, created_at: T0, updated_at: T1 },
      { operation_id: reversalId, type: 'reversal', status: 'success', amount: 1000, reason: null, payer_action: null, created_at: T3, updated_at: T3 },
    ]);
  });

  it('Given follow-up events of a payment never initiated, then neither projection writes a row', async function () {
    const id = randomUUID();
    const events = [paymentSettled(id), captureSucceeded(id)];

    await payments.given(events).then(rowsOf('payments'), []);
    await operations.given(events).then(rowsOf('transactions'), []);
  });

  it('Given a payment settled in a later batch than it was initiated, then its row is folded on from the stored state, keeping its first position', async function () {
    const initiated = paymentInitiated({ amount: 1999, amountText: '19.99' });
    const id = initiated.data.paymentId;

    await payments
      .given([initiated])
      .given([paymentSettled(id, { amount: 1999 })])
      .then(rowsOf('payments', ['status', 'settled_amount', 'stream_version', 'initiated_position', 'updated_at']), [
        { status: 'SETTLED', settled_amount: 1999, stream_version: 1, initiated_position: 1, updated_at: T1 },
      ]);
  });
});
