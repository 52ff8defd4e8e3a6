/**
 * Payouts in the ledger: given a merchant's sales, a refund and payouts (payments of kind `credit`:
 * CREDIT2VIRTUAL, card credits), when the ledger projection catches up, then a settled payout moves
 * money from `merchant_receivable` to `paid_out`, its own account, and the analyst views count it in
 * its own columns (`payout_count`, `paid_out_amount`), never as a sale, a refund or a void.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { verifyProjections } from '../../projections/rebuild';
import { ANY } from '../../src/application/ports/event-store';
import { PAYOUT_BALANCE_EVENT_SCHEMA_VERSION, payoutBalanceStreamId, type PayoutBalanceToppedUp } from '../../src/domain/payouts/balance-events';
import { LedgerReportQueries, ledgerBalances, paymentLedger, unbalancedPostingSets, zeroBalances } from '../../projections/ledger/queries';
import type { PaymentEvent, PaymentInitiated } from '../../src/domain/payment/events';
import { T0, T1, T2, appendPaymentEvents, creditVoid, paymentDeclined, paymentInitiated, paymentSettled } from '../support/payment-fixtures';
import { forEachDialect } from './harness';

const payout = (amount: number): PaymentInitiated =>
  paymentInitiated({
    merchantId: 'm-pay',
    channel: 's2s_apm',
    kind: 'credit',
    currency: 'GHS',
    amount,
    card: undefined,
    method: { brand: 'sb-momo', parameters: { mobile_money_operator: 'mtn-gh', mobile_number: '233241234567', customer_email: 'payee@example.com' } },
    connector: 'sandbox-apm',
    initiatedAt: T0,
  } as Partial<PaymentInitiated['data']>);
const sale = (amount: number) => paymentInitiated({ merchantId: 'm-pay', currency: 'GHS', amount });

forEachDialect('ledger projection: payouts', (fixture) => {
  async function given(events: PaymentEvent[]): Promise<string> {
    const paymentId = (events[0] as PaymentInitiated).data.paymentId;
    await appendPaymentEvents(fixture().store, paymentId, events);
    await fixture().projector.catchUp();
    expect(await unbalancedPostingSets(fixture().db)).to.deep.equal([]);
    return paymentId;
  }

  async function givenSalesAndPayouts() {
    const s = sale(10_000);
    await given([s, paymentSettled(s.data.paymentId, { amount: 10_000, settledAt: T1 }), ...creditVoid(s.data.paymentId, 'refund', 1_000)]);
    const settled = payout(2_500);
    const declined = payout(99_000);
    const settledId = await given([settled, paymentSettled(settled.data.paymentId, { amount: 2_500, settledAt: T2 })]);
    const declinedId = await given([declined, paymentDeclined(declined.data.paymentId, { reason: 'Insufficient payout balance', declinedAt: T2 })]);
    return { settledId, declinedId };
  }

  it('Given a settled payout, Then merchant_receivable -P and paid_out +P; a declined one posts nothing', async () => {
    const { settledId, declinedId } = await givenSalesAndPayouts();
    expect((await paymentLedger(fixture().db, settledId)).balances).to.deep.equal({ ...zeroBalances(), merchant_receivable: -2_500, paid_out: 2_500 });
    expect((await paymentLedger(fixture().db, declinedId)).postings).to.deep.equal([]);
  });

  it('Given sales, a refund and a payout, Then ledger balances show paid_out as an account of its own', async () => {
    await givenSalesAndPayouts();
    const rows = await ledgerBalances(fixture().db, { merchantId: 'm-pay', currency: 'GHS' });
    expect(Object.fromEntries(rows.map((r) => [r.account, r.balance]))).to.deep.equal({
      merchant_receivable: 10_000 - 1_000 - 2_500,
      paid_out: 2_500,
      payer_funds: -(10_000 - 1_000),
    });
  });

  it('Given the same activity, Then v_daily_volume counts the payout in payout_count and paid_out_amount, not as settled, and net_amount takes it off', async () => {
    await givenSalesAndPayouts();
    const rows = await fixture().db.selectFrom('v_daily_volume').selectAll().where('merchant_id', '=', 'm-pay').execute();
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({
      settled_count: 1,
      settled_amount: 10_000,
      refund_count: 1,
      refunded_amount: 1_000,
      payout_count: 1,
      paid_out_amount: 2_500,
      net_amount: 10_000 - 1_000 - 2_500,
    });
    const [volume] = await new LedgerReportQueries(fixture().db as unknown as ConstructorParameters<typeof LedgerReportQueries>[0]).dailyVolume({ merchantId: 'm-pay' });
    expect(volume).to.include({ settledAmount: 10_000, payoutCount: 1, paidOutAmount: 2_500, netAmount: 6_500 });
    const [refunds] = await fixture().db.selectFrom('v_refund_rate').selectAll().where('merchant_id', '=', 'm-pay').execute();
    expect(refunds).to.include({ settled_count: 1, settled_amount: 10_000, refund_amount_rate: 0.1 });
  });

  it('Given the same activity, Then the approval rates count the sale only: a payout declined for want of balance says nothing about payers', async () => {
    await givenSalesAndPayouts();
    const [overall] = await fixture().db.selectFrom('v_approval_rate').selectAll().where('merchant_id', '=', 'm-pay').execute();
    expect(overall).to.include({ approved_count: 1, declined_count: 0, approval_rate: 1 });
    const daily = await fixture().db.selectFrom('v_approval_rate_daily').selectAll().where('merchant_id', '=', 'm-pay').execute();
    expect(daily.map((r) => [r.approved_count, r.declined_count])).to.deep.equal([[1, 0]]);
  });

  describe('top-ups of the payout balance', function () {
    const T_TOP_UP = '2024-05-01T09:00:00.000Z';
    async function toppedUp(amount: number, topUpId = randomUUID()): Promise<PayoutBalanceToppedUp['data']> {
      const data: PayoutBalanceToppedUp['data'] = { merchantId: 'm-pay', currency: 'GHS', topUpId, amount, note: 'float', toppedUpAt: T_TOP_UP };
      await fixture().store.append(
        payoutBalanceStreamId('m-pay', 'GHS'),
        [{ id: randomUUID(), type: 'PayoutBalanceToppedUp', schemaVersion: PAYOUT_BALANCE_EVENT_SCHEMA_VERSION, data: { ...data }, metadata: {} }],
        ANY,
      );
      return data;
    }

    it('Given a top-up and a payout it funded, Then the top-up posts topped_up -T and merchant_receivable +T, and the receivable is what is left', async () => {
      const top = await toppedUp(5_000);
      const settled = payout(2_500);
      await given([settled, paymentSettled(settled.data.paymentId, { amount: 2_500, settledAt: T2 })]);
      const rows = await ledgerBalances(fixture().db, { merchantId: 'm-pay', currency: 'GHS' });
      expect(Object.fromEntries(rows.map((r) => [r.account, r.balance]))).to.deep.equal({
        merchant_receivable: 5_000 - 2_500,
        paid_out: 2_500,
        topped_up: -5_000,
      });
      const postings = await fixture()
        .db.selectFrom('ledger_postings')
        .select(['line', 'account', 'amount', 'payment_id', 'operation_id', 'event_type', 'occurred_at'])
        .where('event_type', '=', 'PayoutBalanceToppedUp')
        .orderBy('line')
        .execute();
      expect(postings.map((p) => ({ ...p, amount: Number(p.amount) }))).to.deep.equal([
        { line: 0, account: 'topped_up', amount: -5_000, payment_id: '', operation_id: top.topUpId, event_type: 'PayoutBalanceToppedUp', occurred_at: T_TOP_UP },
        { line: 1, account: 'merchant_receivable', amount: 5_000, payment_id: '', operation_id: top.topUpId, event_type: 'PayoutBalanceToppedUp', occurred_at: T_TOP_UP },
      ]);
    });

    it('Given top-ups, Then v_daily_volume counts them in top_up_count and topped_up_amount, never as settled, and net_amount adds them', async () => {
      await toppedUp(5_000);
      await toppedUp(1_000);
      const settled = payout(2_500);
      await given([settled, paymentSettled(settled.data.paymentId, { amount: 2_500, settledAt: T2 })]);
      const rows = await fixture().db.selectFrom('v_daily_volume').selectAll().where('merchant_id', '=', 'm-pay').execute();
      expect(rows).to.have.length(1);
      expect(rows[0]).to.include({ settled_count: 0, settled_amount: 0, payout_count: 1, paid_out_amount: 2_500, top_up_count: 2, topped_up_amount: 6_000, net_amount: 6_000 - 2_500 });
    });

    it('Given top-ups, Then projections verify replays them to the same postings', async () => {
      await toppedUp(5_000);
      await given([sale(1_000)]);
      expect(await verifyProjections({ store: fixture().store, db: fixture().db })).to.deep.equal([]);
    });
  });
});
