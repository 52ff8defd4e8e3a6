/** Reading the payments read model: status lookups, and candidates for the payer-action and reconciliation workers. */
import type { Kysely, Selectable } from 'kysely';
import type { AbandonedPayerAction, PayerActionsDue } from '../../src/application/ports/payer-actions-due';
import type { PaymentRecord } from '../../src/application/ports/payment-read-model';
import type { PaymentSearch, PaymentSearchFilter, PaymentSearchPage } from '../../src/application/ports/payment-search';
import type { PaymentKind } from '../../src/domain/payment/events';
import type { ExistingPayment, PaymentPhase, PaymentStatus } from '../../src/domain/payment/state';
import { PAYMENT_COLUMNS } from './projection';
import type { PaymentsTable, PaymentsTables } from './tables';

type PaymentSelect = Omit<Selectable<PaymentsTable>, 'initiated_position'>;

export function toPaymentRecord(row: PaymentSelect): PaymentRecord {
  return {
    paymentId: row.payment_id,
    merchantId: row.merchant_id,
    orderId: row.order_id,
    channel: row.channel,
    kind: row.kind as PaymentKind,
    status: row.status as PaymentStatus,
    phase: row.phase as PaymentPhase,
    currency: row.currency,
    amount: Number(row.amount),
    amountText: row.amount_text,
    heldAmount: Number(row.held_amount),
    settledAmount: Number(row.settled_amount),
    refundedAmount: Number(row.refunded_amount),
    reversedAmount: Number(row.reversed_amount),
    descriptor: row.descriptor,
    declineReason: row.decline_reason,
    cardMask: row.card_mask,
    cardBrand: row.card_brand,
    method: row.method,
    cardExpMonth: row.card_exp_month,
    cardExpYear: row.card_exp_year,
    cardToken: row.card_token,
    payerEmail: row.payer_email,
    termUrl3ds: row.term_url_3ds,
    notificationUrl: row.notification_url,
    redirectUrl: row.redirect_url,
    redirectParams: row.redirect_params === null ? null : (JSON.parse(row.redirect_params) as Record<string, string>),
    initiatedAt: row.initiated_at,
    updatedAt: row.updated_at,
    streamVersion: Number(row.stream_version),
    state: JSON.parse(row.state) as ExistingPayment,
  };
}

export class PaymentQueries implements PayerActionsDue, PaymentSearch {
  constructor(private readonly db: Kysely<PaymentsTables>) {}

  async paymentById(paymentId: string): Promise<PaymentRecord | undefined> {
    const row = await this.db.selectFrom('payments').select(PAYMENT_COLUMNS).where('payment_id', '=', paymentId).executeTakeFirst();
    return row && toPaymentRecord(row);
  }

  async latestPaymentByOrder(merchantId: string, orderId: string): Promise<PaymentRecord | undefined> {
    const [latest] = await this.paymentsByOrder(merchantId, orderId, 1);
    return latest;
  }

  /** Newest first; payments initiated in the same instant come in the order they were recorded. */
  async paymentsByOrder(merchantId: string, orderId: string, limit: number): Promise<PaymentRecord[]> {
    const rows = await this.db
      .selectFrom('payments')
      .select(PAYMENT_COLUMNS)
      .where('merchant_id', '=', merchantId)
      .where('order_id', '=', orderId)
      .orderBy('initiated_at', 'desc')
      .orderBy('initiated_position', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toPaymentRecord);
  }

  async abandonedPayerActions(cutoffIso: string, limit: number): Promise<AbandonedPayerAction[]> {
    const rows = await this.db
      .selectFrom('payments')
      .select(['payment_id', 'phase', 'status'])
      .where('phase', 'in', ['awaiting_3ds', 'awaiting_redirect', 'awaiting_provider'])
      .where('updated_at', '<', cutoffIso)
      .limit(limit)
      .execute();
    return rows.map(abandonedOf);
  }

  /** Payouts made with a method still waiting for their provider, initiated at or before `initiatedBefore`, oldest first. */
  async pendingPayouts(initiatedBefore: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('payments')
      .select('payment_id')
      .where('phase', '=', 'awaiting_provider')
      .where('kind', '=', 'credit')
      .where('channel', '=', 's2s_apm')
      .where('initiated_at', '<=', initiatedBefore)
      .orderBy('initiated_at')
      .limit(limit)
      .execute();
    return rows.map((row) => row.payment_id);
  }

  async expiredPayerActions(nowIso: string, limit: number): Promise<AbandonedPayerAction[]> {
    const rows = await this.db
      .selectFrom('payments')
      .select(['payment_id', 'phase', 'status'])
      .where('expires_at', 'is not', null)
      .where('expires_at', '<=', nowIso)
      .where('phase', 'in', ['awaiting_3ds', 'awaiting_redirect', 'awaiting_provider'])
      .limit(limit)
      .execute();
    return rows.map(abandonedOf);
  }

  /** Payments whose sale or authorization has no recorded acquirer answer, last changed before `cutoffIso`. */
  async unansweredPayments(cutoffIso: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('payments')
      .select('payment_id')
      .where('phase', 'in', ['initiated', 'outcome_unknown'])
      .where('updated_at', '<', cutoffIso)
      .limit(limit)
      .execute();
    return rows.map((row) => row.payment_id);
  }

  /**
   * Operators' search: every filter given, newest recorded first, a page at a time. The cursor is
   * the global position the last payment of a page was initiated at.
   */
  async searchPayments(filter: PaymentSearchFilter): Promise<PaymentSearchPage> {
    const limit = Math.min(Math.max(filter.limit ?? 50, 1), 200);
    let query = this.db.selectFrom('payments').select([...PAYMENT_COLUMNS, 'initiated_position']);
    if (filter.paymentId !== undefined) query = query.where('payment_id', '=', filter.paymentId);
    if (filter.orderId !== undefined) query = query.where('order_id', '=', filter.orderId);
    if (filter.merchantId !== undefined) query = query.where('merchant_id', '=', filter.merchantId);
    if (filter.statuses !== undefined && filter.statuses.length > 0) query = query.where('status', 'in', filter.statuses);
    if (filter.method !== undefined) {
      // An S2S APM wallet paid in the card flow has both: the wallet's name and its card's brand.
      const method = filter.method.toLowerCase();
      query = query.where((eb) => eb.or([eb(eb.fn('lower', ['method']), '=', method), eb(eb.fn('lower', ['card_brand']), '=', method)]));
    }
    if (filter.channel !== undefined) query = query.where('channel', '=', filter.channel);
    // ISO-8601 UTC texts of one shape: comparing the text compares the instants.
    if (filter.from !== undefined) query = query.where('initiated_at', '>=', filter.from);
    if (filter.to !== undefined) query = query.where('initiated_at', '<', filter.to);
    if (filter.before !== undefined && /^\d{1,20}$/.test(filter.before)) query = query.where('initiated_position', '<', filter.before as never);
    const rows = await query.orderBy('initiated_position', 'desc').limit(limit + 1).execute();
    const page = rows.slice(0, limit);
    return {
      payments: page.map(({ initiated_position: _position, ...row }) => toPaymentRecord(row)),
      next: rows.length > limit ? String(page[page.length - 1].initiated_position) : null,
    };
  }
}

/** A QR code is the provider page whose payment is PENDING rather than REDIRECT. */
function abandonedOf(row: { payment_id: string; phase: string; status: string }): AbandonedPayerAction {
  const phase = row.phase as AbandonedPayerAction['phase'];
  return { paymentId: row.payment_id, phase, ...(phase === 'awaiting_redirect' && row.status === 'PENDING' ? { qr: true } : {}) };
}
