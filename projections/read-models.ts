/**
 * The query side the API reads from. Rows come back as plain typed objects: numbers for amounts
 * (pg hands int8 back as text), parsed JSON, booleans, whatever the dialect.
 */
import type { Kysely, Selectable } from 'kysely';
import type { EventStore } from '../src/application/ports/event-store';
import type { PaymentKind } from '../src/domain/payment/events';
import type { ExistingPayment, PaymentPhase, PaymentStatus } from '../src/domain/payment/state';
import { MERCHANTS_PROJECTION, merchantStateOfRow } from './merchants-projection';
import { PAYMENT_COLUMNS, PAYMENTS_PROJECTION } from './payments-projection';
import type { Projector } from './projector';
import type { MerchantRecord } from '../src/application/ports/merchant-lookup';
import type { MerchantsTable, OperationStatus, OperationType, PaymentsTable, ReadModelDatabase, TransactionsTable } from './schema';
import { OPERATION_COLUMNS, TRANSACTIONS_PROJECTION } from './transactions-projection';
import { SCHEDULES_PROJECTION } from './schedules-projection';

export interface PaymentRow {
  paymentId: string;
  merchantId: string;
  orderId: string;
  channel: string;
  kind: PaymentKind;
  status: PaymentStatus;
  phase: PaymentPhase;
  currency: string;
  amount: number;
  amountText: string;
  heldAmount: number;
  settledAmount: number;
  refundedAmount: number;
  reversedAmount: number;
  descriptor: string | null;
  declineReason: string | null;
  cardMask: string;
  cardBrand: string;
  cardExpMonth: string;
  cardExpYear: string;
  cardToken: string | null;
  payerEmail: string | null;
  termUrl3ds: string | null;
  notificationUrl: string | null;
  redirectUrl: string | null;
  redirectParams: Record<string, string> | null;
  initiatedAt: string;
  updatedAt: string;
  streamVersion: number;
  state: ExistingPayment;
}

export interface OperationRow {
  operationId: string;
  paymentId: string;
  merchantId: string;
  orderId: string;
  type: OperationType;
  status: OperationStatus;
  amount: number;
  currency: string;
  reason: string | null;
  payerAction: '3ds' | 'redirect' | null;
  createdAt: string;
  updatedAt: string;
}

/** Exactly what the application's merchant lookup port expects. */
export type MerchantRow = MerchantRecord;

export interface ReadModelsOptions {
  db: Kysely<ReadModelDatabase>;
  store: EventStore;
  /** The in-process projector, when there is one: waiting on it beats polling the checkpoints. */
  projector?: Projector;
  /** Projections `catchUpToHead` waits for when it polls. Default: payments, transactions, merchants. */
  projectionNames?: string[];
  /** Poll interval of `catchUpToHead` without a projector. Default 20 ms. */
  pollIntervalMs?: number;
}

const DEFAULT_PROJECTIONS = [PAYMENTS_PROJECTION, TRANSACTIONS_PROJECTION, MERCHANTS_PROJECTION, SCHEDULES_PROJECTION];

/** An open chain the scheduler should look at. */
export interface DueChain {
  chainId: string;
  nextDueDate: string;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

type PaymentSelect = Omit<Selectable<PaymentsTable>, 'initiated_position'>;
type OperationSelect = Omit<Selectable<TransactionsTable>, 'created_position'>;

export function toPaymentRow(row: PaymentSelect): PaymentRow {
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

export function toOperationRow(row: OperationSelect): OperationRow {
  return {
    operationId: row.operation_id,
    paymentId: row.payment_id,
    merchantId: row.merchant_id,
    orderId: row.order_id,
    type: row.type,
    status: row.status,
    amount: Number(row.amount),
    currency: row.currency,
    reason: row.reason,
    payerAction: row.payer_action as OperationRow['payerAction'],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toMerchantRow(row: Selectable<MerchantsTable>): MerchantRow {
  const { exists: _exists, ...merchant } = merchantStateOfRow(row);
  return merchant;
}

export class ReadModels {
  private readonly db: Kysely<ReadModelDatabase>;
  private readonly store: EventStore;
  private readonly projector: Projector | undefined;
  private readonly projectionNames: string[];
  private readonly pollIntervalMs: number;

  constructor(options: ReadModelsOptions) {
    this.db = options.db;
    this.store = options.store;
    this.projector = options.projector;
    this.projectionNames = options.projectionNames ?? DEFAULT_PROJECTIONS;
    this.pollIntervalMs = options.pollIntervalMs ?? 20;
  }

  async paymentById(paymentId: string): Promise<PaymentRow | undefined> {
    const row = await this.db.selectFrom('payments').select(PAYMENT_COLUMNS).where('payment_id', '=', paymentId).executeTakeFirst();
    return row && toPaymentRow(row);
  }

  async latestPaymentByOrder(merchantId: string, orderId: string): Promise<PaymentRow | undefined> {
    const [latest] = await this.paymentsByOrder(merchantId, orderId, 1);
    return latest;
  }

  /** Newest first; payments initiated in the same instant come in the order they were recorded. */
  async paymentsByOrder(merchantId: string, orderId: string, limit: number): Promise<PaymentRow[]> {
    const rows = await this.db
      .selectFrom('payments')
      .select(PAYMENT_COLUMNS)
      .where('merchant_id', '=', merchantId)
      .where('order_id', '=', orderId)
      .orderBy('initiated_at', 'desc')
      .orderBy('initiated_position', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toPaymentRow);
  }

  /** Oldest first: the initial sale or authorization, then what followed. */
  async operationsOfPayment(paymentId: string): Promise<OperationRow[]> {
    const rows = await this.db
      .selectFrom('transactions')
      .select(OPERATION_COLUMNS)
      .where('payment_id', '=', paymentId)
      .orderBy('created_position', 'asc')
      .execute();
    return rows.map(toOperationRow);
  }

  async merchantByClientKey(clientKey: string): Promise<MerchantRow | undefined> {
    const row = await this.db.selectFrom('merchants').selectAll().where('client_key', '=', clientKey).executeTakeFirst();
    return row && toMerchantRow(row);
  }

  async merchantByMerchantKey(merchantKey: string): Promise<MerchantRow | undefined> {
    const row = await this.db.selectFrom('merchants').selectAll().where('merchant_key', '=', merchantKey).executeTakeFirst();
    return row && toMerchantRow(row);
  }

  async merchantById(merchantId: string): Promise<MerchantRow | undefined> {
    const row = await this.db.selectFrom('merchants').selectAll().where('merchant_id', '=', merchantId).executeTakeFirst();
    return row && toMerchantRow(row);
  }

  async listMerchants(): Promise<MerchantRow[]> {
    const rows = await this.db.selectFrom('merchants').selectAll().orderBy('registered_at', 'asc').orderBy('merchant_id', 'asc').execute();
    return rows.map(toMerchantRow);
  }

  /** Chains of one schedule that a payment of this chain started (its initial payment or a later charge). */
  async chainIdsOf(merchantId: string, scheduleId: string, initPaymentId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('scheduled_chains')
      .select('chain_id')
      .where('merchant_id', '=', merchantId)
      .where('schedule_id', '=', scheduleId)
      .where((eb) => eb.or([eb('init_payment_id', '=', initPaymentId), eb('chain_id', '=', initPaymentId)]))
      .execute();
    return rows.map((r) => r.chain_id);
  }

  /** Open chains due on or before `date` (YYYY-MM-DD), earliest first. */
  async dueChains(date: string, limit: number): Promise<DueChain[]> {
    const rows = await this.db
      .selectFrom('scheduled_chains')
      .select(['chain_id', 'next_due_date'])
      .where('status', '=', 'open')
      .where('next_due_date', '<=', date)
      .orderBy('next_due_date', 'asc')
      .orderBy('chain_id', 'asc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ chainId: r.chain_id, nextDueDate: r.next_due_date! }));
  }

  /** The earliest date after `date` (YYYY-MM-DD) that an open chain falls due, or null. */
  async earliestDueDateAfter(date: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('scheduled_chains')
      .select((eb) => eb.fn.min('next_due_date').as('earliest'))
      .where('status', '=', 'open')
      .where('next_due_date', '>', date)
      .executeTakeFirst();
    return (row?.earliest as string | null | undefined) ?? null;
  }

  /** Committed checkpoints as stored, whichever process wrote them; projections yet to apply anything are absent. */
  async checkpoints(): Promise<Record<string, bigint>> {
    const rows = await this.db.selectFrom('projection_checkpoints').select(['name', 'position']).execute();
    const result: Record<string, bigint> = {};
    for (const row of rows) if (row.position !== null) result[row.name] = BigInt(row.position);
    return result;
  }

  /**
   * Waits until the read models include everything in the store right now, so a client reads its
   * own writes. False when `timeoutMs` passes first.
   */
  async catchUpToHead(timeoutMs = 2000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    const head = await this.store.headPosition();
    if (head === null) return true;
    if (this.projector) return this.projector.waitFor(head, Math.max(0, deadline - Date.now()));
    // The projector lives in another process: its committed checkpoints are all we can see.
    for (;;) {
      const checkpoints = await this.checkpoints();
      if (this.projectionNames.every((name) => checkpoints[name] !== undefined && checkpoints[name] >= head)) return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await sleep(Math.min(this.pollIntervalMs, left));
    }
  }
}
