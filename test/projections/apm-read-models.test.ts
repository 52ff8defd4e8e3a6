/**
 * The read models of payments made with an alternative method: the payments row (no card, the
 * provider's deadline while one is awaited), the operations row (`qr`, `provider` payer actions),
 * the ledger (an APM sale settles and is refunded like a card sale), and a merchant's methods and
 * connectors settings, which the merchants row keeps.
 */
import { expect } from 'chai';
import { paymentsProjection } from '../../projections/payments/module';
import { transactionsProjection } from '../../projections/transactions/module';
import { ledgerProjection } from '../../projections/ledger/module';
import { merchantsProjection } from '../../projections/merchants/module';
import type { PaymentEvent } from '../../src/domain/payment/events';
import { projectionSpec, rowsOf } from '../support/projection-spec';
import { merchantRegistered, merchantSettingsChanged } from '../support/payment-fixtures';

const ID = '7b1e2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
const T0 = '2025-03-01T10:00:00.000Z';
const T1 = '2025-03-01T10:00:01.000Z';
const T2 = '2025-03-01T10:00:40.000Z';
const EXPIRES = '2025-03-01T10:01:01.000Z';

const initiated: PaymentEvent = {
  type: 'PaymentInitiated',
  data: {
    paymentId: ID,
    merchantId: 'm-apm',
    channel: 's2s_apm',
    kind: 'sale',
    orderId: 'APM-1',
    orderDescription: 'APM order',
    currency: 'JPY',
    amount: 1500,
    amountText: '1500',
    method: { brand: 'sb-qr', parameters: {}, identifier: 'p-1', returnUrl: 'https://shop.test/back' },
    payer: { email: 'ada@example.test' },
    termUrl3ds: null,
    notificationUrl: null,
    customData: null,
    parameters: null,
    recurringInit: false,
    connector: 'sandbox-apm',
    initiatedAt: T0,
  },
};
const qr: PaymentEvent = {
  type: 'PayerRedirectRequired',
  data: { paymentId: ID, redirectUrl: 'https://gw.test/sandbox/provider/x', display: 'qr', params: { qr_code: 'QUJD' }, expiresAt: EXPIRES, reference: 'r', requiredAt: T1 },
};
const settled: PaymentEvent = { type: 'PaymentSettled', data: { paymentId: ID, amount: 1500, descriptor: 'SANDBOX*APM', reference: 'r', settledAt: T2 } };

describe('read models of alternative-method payments', () => {
  it('Given a QR payment, Then its row has no card, status PENDING and the code\'s deadline; once settled the deadline is gone', async () => {
    const columns = ['payment_id', 'channel', 'status', 'phase', 'card_mask', 'card_brand', 'card_token', 'redirect_params', 'expires_at'];
    const shown = projectionSpec(paymentsProjection()).given([initiated, qr]);
    await shown.then(rowsOf('payments', columns), [
      { payment_id: ID, channel: 's2s_apm', status: 'PENDING', phase: 'awaiting_redirect', card_mask: '', card_brand: '', card_token: null, redirect_params: '{"qr_code":"QUJD"}', expires_at: EXPIRES },
    ]);
    await shown.given([settled]).then(rowsOf('payments', ['status', 'expires_at']), [{ status: 'SETTLED', expires_at: null }]);
  });

  it('Given a payment waiting on its provider, Then its operation row shows the payer acting with the provider', async () => {
    const pending: PaymentEvent = { type: 'PaymentPending', data: { paymentId: ID, instructions: { crypto_address: 'x' }, reference: 'r', pendingAt: T1 } };
    await projectionSpec(transactionsProjection())
      .given([initiated, pending])
      .then(rowsOf('transactions', ['operation_id', 'type', 'status', 'payer_action', 'amount', 'currency']), [
        { operation_id: ID, type: 'sale', status: 'pending', payer_action: 'provider', amount: 1500, currency: 'JPY' },
      ]);
    await projectionSpec(transactionsProjection())
      .given([initiated, qr])
      .then(rowsOf('transactions', ['payer_action']), [{ payer_action: 'qr' }]);
  });

  it('Given an APM sale settled and refunded, Then the ledger moves the money as for a card, in whole yen', async () => {
    const refund: PaymentEvent[] = [
      { type: 'CreditVoidRequested', data: { paymentId: ID, operationId: 'op-1', kind: 'refund', amount: 500, amountText: '500', requestedAt: T2 } },
      { type: 'RefundSucceeded', data: { paymentId: ID, operationId: 'op-1', amount: 500, refundedAt: T2 } },
    ];
    // Posting sets are keyed by their event's id: their order in the table says nothing.
    const postings = await projectionSpec(ledgerProjection())
      .given([initiated, qr, settled, ...refund])
      .rows(rowsOf('ledger_postings', ['line', 'account', 'amount', 'currency', 'event_type']));
    expect(postings).to.have.deep.members([
        { line: 0, account: 'payer_funds', amount: -1500, currency: 'JPY', event_type: 'PaymentSettled' },
        { line: 1, account: 'merchant_receivable', amount: 1500, currency: 'JPY', event_type: 'PaymentSettled' },
        { line: 0, account: 'payer_funds', amount: 500, currency: 'JPY', event_type: 'RefundSucceeded' },
        { line: 1, account: 'merchant_receivable', amount: -500, currency: 'JPY', event_type: 'RefundSucceeded' },
    ]);
  });

  it("Given a merchant's methods and connectors set and changed, Then its row keeps them; never set, it has none", async () => {
    const registered = projectionSpec(merchantsProjection()).given([merchantRegistered({ merchantId: 'm-1', clientKey: 'ck-1', merchantKey: 'mk-1' }), merchantRegistered({ merchantId: 'm-2', clientKey: 'ck-2', merchantKey: 'mk-2', methods: 'all', connectors: ['sandbox-apm'] })]);
    await registered.then(rowsOf('merchants', ['merchant_id', 'methods', 'connectors']), [
        { merchant_id: 'm-1', methods: null, connectors: null },
        { merchant_id: 'm-2', methods: '"all"', connectors: '["sandbox-apm"]' },
      ]);
    await registered.given([merchantSettingsChanged('m-2', { methods: ['sb-qr'] }, T1)]).then(rowsOf('merchants', ['merchant_id', 'methods']), [
      { merchant_id: 'm-1', methods: null },
      { merchant_id: 'm-2', methods: '["sb-qr"]' },
    ]);
  });
});
