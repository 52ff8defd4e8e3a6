/**
 * The query side, as one object the composition root connects to the application's ports: each
 * member is a projection's own queries (its folder's `queries.ts`), and `catchUpToHead` waits
 * until they include the store's head. Rows come back as plain typed records: numbers for amounts
 * (pg hands int8 back as text), parsed JSON, booleans, whatever the dialect.
 */
import type { Kysely } from 'kysely';
import type { CallbackDeliveriesReadModel } from '../src/application/ports/callback-deliveries-read-model';
import type { DueChain, DueChainsReadModel } from '../src/application/ports/due-chains-read-model';
import type { EventStore } from '../src/application/ports/event-store';
import type { LedgerReadModel } from '../src/application/ports/ledger-read-model';
import type { MerchantLookup, MerchantRecord } from '../src/application/ports/merchant-lookup';
import type { OperationsToReconcile } from '../src/application/ports/operations-to-reconcile';
import type { PendingPayouts } from '../src/application/ports/pending-payouts';
import type { AbandonedPayerAction, PayerActionsDue } from '../src/application/ports/payer-actions-due';
import type { PaymentReadModel, PaymentRecord } from '../src/application/ports/payment-read-model';
import { CallbackQueries } from './callback-deliveries/queries';
import { scoped, type ReadModelDatabase } from './database-schema';
import { LedgerQueries } from './ledger/queries';
import { MERCHANTS_PROJECTION } from './merchants/module';
import { MerchantQueries } from './merchants/queries';
import { PAYMENTS_PROJECTION } from './payments/module';
import { PaymentQueries } from './payments/queries';
import type { Projector } from './projector';
import { SCHEDULES_PROJECTION } from './schedules/module';
import { ScheduleQueries } from './schedules/queries';
import { TRANSACTIONS_PROJECTION } from './transactions/module';
import { TransactionQueries, type OperationRecord } from './transactions/queries';

export type { PaymentRecord, OperationRecord, MerchantRecord, DueChain };

export interface ReadModelsOptions {
  db: Kysely<ReadModelDatabase>;
  store: EventStore;
  /** The in-process projector, when there is one: waiting on it beats polling the checkpoints. */
  projector?: Projector;
  /** Projections `catchUpToHead` waits for when it polls. Default: payments, transactions, merchants, schedules. */
  projectionNames?: string[];
  /** Poll interval of `catchUpToHead` without a projector. Default 20 ms. */
  pollIntervalMs?: number;
}

/** A projector this process runs on another thread, as `catchUpToHead` reaches it. */
export interface ProjectorElsewhere {
  /** Told the position a reader waits for: it reads and applies it at once instead of gathering more. */
  hurry(position: bigint): void;
  /**
   * Changes after each batch it applies (a counter in shared memory, commit-signal.ts): a reader
   * looks at the checkpoints then instead of at its next poll.
   */
  applied?: { count(): number; changedSince(seen: number, timeoutMs: number): Promise<void> };
}

/**
 * The projections a merchant's next request reads after its own write (`catchUpToHead`): payments
 * and operations for status lookups, merchants, and schedules for recurring chains. A projector
 * applies each batch to them first (ProjectorOptions.readersWaitFor).
 */
export const READ_YOUR_WRITES: readonly string[] = [PAYMENTS_PROJECTION, TRANSACTIONS_PROJECTION, MERCHANTS_PROJECTION, SCHEDULES_PROJECTION];

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class ReadModels
  implements PaymentReadModel, MerchantLookup, DueChainsReadModel, PayerActionsDue, OperationsToReconcile, PendingPayouts
{
  readonly payments: PaymentQueries;
  readonly transactions: TransactionQueries;
  readonly merchants: MerchantQueries;
  readonly schedules: ScheduleQueries;
  readonly callbacks: CallbackDeliveriesReadModel;
  readonly ledger: LedgerReadModel;

  private readonly db: Kysely<ReadModelDatabase>;
  private readonly store: EventStore;
  private readonly projector: Projector | undefined;
  private readonly projectionNames: string[];
  private readonly pollIntervalMs: number;
  private elsewhere: ProjectorElsewhere | null = null;

  constructor(options: ReadModelsOptions) {
    this.db = options.db;
    this.store = options.store;
    this.projector = options.projector;
    this.projectionNames = options.projectionNames ?? [...READ_YOUR_WRITES];
    this.pollIntervalMs = options.pollIntervalMs ?? 20;
    this.payments = new PaymentQueries(scoped(this.db));
    this.transactions = new TransactionQueries(scoped(this.db));
    this.merchants = new MerchantQueries(scoped(this.db));
    this.schedules = new ScheduleQueries(scoped(this.db));
    this.callbacks = new CallbackQueries(scoped(this.db));
    this.ledger = new LedgerQueries(scoped(this.db));
  }

  paymentById(paymentId: string): Promise<PaymentRecord | undefined> {
    return this.payments.paymentById(paymentId);
  }

  latestPaymentByOrder(merchantId: string, orderId: string): Promise<PaymentRecord | undefined> {
    return this.payments.latestPaymentByOrder(merchantId, orderId);
  }

  paymentsByOrder(merchantId: string, orderId: string, limit: number): Promise<PaymentRecord[]> {
    return this.payments.paymentsByOrder(merchantId, orderId, limit);
  }

  operationsOfPayment(paymentId: string): Promise<OperationRecord[]> {
    return this.transactions.operationsOfPayment(paymentId);
  }

  abandonedPayerActions(cutoffIso: string, limit: number): Promise<AbandonedPayerAction[]> {
    return this.payments.abandonedPayerActions(cutoffIso, limit);
  }

  expiredPayerActions(nowIso: string, limit: number): Promise<AbandonedPayerAction[]> {
    return this.payments.expiredPayerActions(nowIso, limit);
  }

  pendingPayouts(initiatedBefore: string, limit: number): Promise<string[]> {
    return this.payments.pendingPayouts(initiatedBefore, limit);
  }

  /** Up to `limit` unanswered sales or authorizations and up to `limit` unanswered follow-ups. */
  async paymentsToReconcile(cutoffIso: string, limit: number): Promise<string[]> {
    const authorizations = await this.payments.unansweredPayments(cutoffIso, limit);
    const operations = await this.transactions.paymentsWithUnansweredOperations(cutoffIso, limit);
    return [...new Set([...authorizations, ...operations])];
  }

  merchantByClientKey(clientKey: string): Promise<MerchantRecord | undefined> {
    return this.merchants.merchantByClientKey(clientKey);
  }

  merchantByMerchantKey(merchantKey: string): Promise<MerchantRecord | undefined> {
    return this.merchants.merchantByMerchantKey(merchantKey);
  }

  merchantById(merchantId: string): Promise<MerchantRecord | undefined> {
    return this.merchants.merchantById(merchantId);
  }

  listMerchants(): Promise<MerchantRecord[]> {
    return this.merchants.listMerchants();
  }

  chainIdsOf(merchantId: string, scheduleId: string, initPaymentId: string): Promise<string[]> {
    return this.schedules.chainIdsOf(merchantId, scheduleId, initPaymentId);
  }

  dueChains(date: string, limit: number): Promise<DueChain[]> {
    return this.schedules.dueChains(date, limit);
  }

  earliestDueDateAfter(date: string): Promise<string | null> {
    return this.schedules.earliestDueDateAfter(date);
  }

  /** Committed checkpoints as stored, whichever process wrote them; projections yet to apply anything are absent. */
  async checkpoints(): Promise<Record<string, bigint>> {
    const rows = await this.db.selectFrom('projection_checkpoints').select(['name', 'position']).execute();
    const result: Record<string, bigint> = {};
    for (const row of rows) if (row.position !== null) result[row.name] = BigInt(row.position);
    return result;
  }

  /** Tells `catchUpToHead` how to reach a projector of this process that runs on its own thread. */
  followProjectorElsewhere(projector: ProjectorElsewhere): void {
    this.elsewhere = projector;
  }

  /**
   * Waits until the read models include everything in the store right now, so a client reads its
   * own writes. False when `timeoutMs` passes first. `projections`: the ones the caller reads, when
   * not those a payment request reads (READ_YOUR_WRITES, or the constructor's `projectionNames`).
   */
  async catchUpToHead(timeoutMs = 2000, projections: readonly string[] = this.projectionNames): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    const head = await this.store.headPosition();
    if (head === null) return true;
    if (this.projector) return this.projector.waitFor(head, Math.max(0, deadline - Date.now()), projections);
    // The projector lives on another thread or in another process: its committed checkpoints are all we can see.
    const applied = this.elsewhere?.applied;
    for (let first = true; ; first = false) {
      // Taken before looking: a batch applied while we look ends the wait after it.
      const appliedSeen = applied?.count();
      const checkpoints = await this.checkpoints();
      if (projections.every((name) => checkpoints[name] !== undefined && checkpoints[name] >= head)) return true;
      if (first) this.elsewhere?.hurry(head);
      const left = deadline - Date.now();
      if (left <= 0) return false;
      const wait = Math.min(this.pollIntervalMs, left);
      // The poll stays: a projector in another process is seen only by it.
      await (applied ? applied.changedSince(appliedSeen!, wait) : sleep(wait));
    }
  }
}
