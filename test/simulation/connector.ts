/**
 * A provider whose every answer is drawn from the simulation's seed: success, decline, soft decline
 * (the gateway cascades to the merchant's next connector), 3-D Secure and redirects the payer
 * completes or abandons, pending outcomes settled later by notifications, and lost answers
 * (`unknown`) that only reconciliation can settle. It keeps what it decided for every transaction,
 * so a status lookup tells the truth and a notification repeats it.
 */
import type {
  Connector,
  ConnectorCapabilities,
  ConnectorOutcome,
  FollowUpOutcome,
  FollowUpRequest,
  InboundNotification,
  PayerReturn,
  PayerReturnOutcome,
  PaymentRequest,
  StatusRequest,
} from '../../src/application/ports/connector';
import type { MethodDescription, MethodField } from '../../src/domain/payment/method-fields';
import type { Random } from './random';

/** Card payments, a redirect method, a method its provider decides later, and a payout method. */
export const SIM_METHODS = { redirect: 'sim-redirect', pending: 'sim-pending', payout: 'sim-payout' } as const;

/** What the provider finally decided about a transaction: the truth its status lookups tell. */
export type Truth = 'success' | 'declined';

export interface ProviderTransaction {
  reference: string;
  paymentId: string;
  connector: string;
  kind: 'authorize' | 'payout';
  amount: number;
  /** Decided now, or once the payer or the provider acts. */
  truth: Truth | null;
  /** The payer has yet to act (3-D Secure or a redirect). */
  awaitingPayer: '3ds' | 'redirect' | null;
  /** The provider decides later and tells the gateway with a notification. */
  pending: boolean;
  /** When the provider gives up on a pending transaction (epoch ms): it is declined then, never decided after. */
  expiresAt: number | null;
  /** Where the payer comes back to the gateway from the provider's page (with the provider's reference). */
  payerUrl: string | null;
}

export interface FollowUpRecord {
  kind: 'capture' | 'void' | 'refund' | 'reversal';
  operationId: string;
  truth: 'success' | 'declined';
}

const descriptor = 'SIM*GATEWAY';

export class SimulatedProvider {
  readonly transactions = new Map<string, ProviderTransaction>();
  readonly followUps = new Map<string, FollowUpRecord>();
  private next = 0;

  constructor(
    private readonly random: Random,
    readonly now: () => number,
  ) {}

  /** How long the provider waits for a pending transaction: the gateway's own deadline for it. */
  static readonly PENDING_LIFETIME_MS = 15 * 60_000;

  /** The two connectors of the provider, in a merchant's order: a soft decline at the first cascades to the second. */
  connectors(): [SimulatedConnector, SimulatedConnector] {
    return [new SimulatedConnector('sim-a', this, this.random), new SimulatedConnector('sim-b', this, this.random)];
  }

  newReference(connector: string): string {
    this.next += 1;
    return `${connector}-${this.next}`;
  }

  byPayment(paymentId: string): ProviderTransaction[] {
    return [...this.transactions.values()].filter((t) => t.paymentId === paymentId);
  }

  /** Transactions whose provider has not decided yet and still may: the notifications still owed. */
  undecidedPending(now: number): ProviderTransaction[] {
    return [...this.transactions.values()].filter((t) => t.pending && t.truth === null && (t.expiresAt === null || now < t.expiresAt));
  }
}

export class SimulatedConnector implements Connector {
  readonly capabilities: ConnectorCapabilities = {
    methods: ['card', SIM_METHODS.redirect, SIM_METHODS.pending, SIM_METHODS.payout],
    currencies: 'any',
    dms: true,
    refundsViaApi: true,
    zeroAmount: true,
    cardOnFile: true,
    walletDecryption: false,
    payouts: true,
  };

  describeMethod(method: string): MethodDescription | null {
    if (method !== SIM_METHODS.payout) return null;
    const field = (name: string, minLength?: number): MethodField => ({ name, presence: 'required', ...(minLength ? { minLength } : {}) });
    return {
      method,
      kind: 'Payout to an email',
      fields: [field('CustomerName'), field('Email'), field('SecurityQuestion', 10), field('SecurityQuestionAnswer', 3), field('account_uuid')],
      payout: 'email',
    };
  }

  constructor(
    readonly name: string,
    private readonly provider: SimulatedProvider,
    private readonly random: Random,
  ) {}

  async authorize(request: PaymentRequest): Promise<ConnectorOutcome> {
    await this.random.turns();
    const method = request.instrument.kind === 'method' ? request.instrument.method : 'card';
    const tx = this.open(request, 'authorize');
    const draw = this.random.next();
    if (method === SIM_METHODS.pending) {
      tx.pending = true;
      if (draw < 0.1) return this.lost(tx, this.random.pick<Truth>(['success', 'declined']));
      return this.pending(tx);
    }
    if (method === SIM_METHODS.redirect) {
      if (draw < 0.1) return this.decide(tx, 'declined');
      return this.awaitPayer(tx, 'redirect', request.returnUrl);
    }
    // Cards: a share of every outcome an acquirer gives.
    if (draw < 0.45) return this.decide(tx, 'success');
    if (draw < 0.6) return this.decide(tx, 'declined');
    if (draw < 0.7 && this.name === 'sim-a') return { ...this.decide(tx, 'declined'), soft: true } as ConnectorOutcome;
    if (draw < 0.85 && request.cardOnFile?.initiator !== 'merchant') return this.awaitPayer(tx, '3ds', request.returnUrl);
    return this.lost(tx, this.random.pick<Truth>(['success', 'success', 'declined']));
  }

  async payout(request: PaymentRequest): Promise<ConnectorOutcome> {
    await this.random.turns();
    const tx = this.open(request, 'payout');
    const draw = this.random.next();
    if (draw < 0.5) return this.decide(tx, 'success');
    if (draw < 0.75) return this.decide(tx, 'declined');
    if (draw < 0.9) {
      tx.pending = true;
      return this.pending(tx);
    }
    return this.lost(tx, this.random.pick<Truth>(['success', 'declined']));
  }

  async completePayerAction(payerReturn: PayerReturn): Promise<PayerReturnOutcome> {
    await this.random.turns();
    const tx = this.provider.transactions.get(payerReturn.reference);
    const said = payerReturn.raw.query.result ?? payerReturn.raw.body.result;
    if (!tx || tx.paymentId !== payerReturn.paymentId || payerReturn.raw.query.ref !== tx.reference) return { verified: false };
    // A payer who comes back twice gets the answer given the first time.
    if (tx.truth === null) tx.truth = said === 'ok' ? 'success' : 'declined';
    tx.awaitingPayer = null;
    return { verified: true, outcome: this.outcomeOf(tx) };
  }

  capture(request: FollowUpRequest): Promise<FollowUpOutcome> {
    return this.followUp('capture', request);
  }

  void(request: FollowUpRequest): Promise<FollowUpOutcome> {
    return this.followUp('void', request);
  }

  refund(request: FollowUpRequest): Promise<FollowUpOutcome> {
    return this.followUp('refund', request);
  }

  reverse(request: FollowUpRequest): Promise<FollowUpOutcome> {
    return this.followUp('reversal', request);
  }

  async status(request: StatusRequest): Promise<ConnectorOutcome> {
    await this.random.turns();
    const tx =
      (request.reference ? this.provider.transactions.get(request.reference) : undefined) ??
      this.provider.byPayment(request.paymentId).filter((t) => t.connector === this.name).at(-1);
    // Never reached the provider: nothing was decided, so nothing was charged.
    if (!tx) return { outcome: 'declined', reason: 'Transaction not found' };
    if (tx.truth === null && tx.expiresAt !== null && this.provider.now() >= tx.expiresAt) tx.truth = 'declined';
    if (tx.truth === null) {
      if (tx.awaitingPayer) return { outcome: 'redirect', reference: tx.reference, redirect: { kind: tx.awaitingPayer, url: 'https://provider.invalid/', method: 'GET', params: {} } };
      return { outcome: 'pending', reference: tx.reference };
    }
    return this.outcomeOf(tx);
  }

  async followUpStatus(kind: FollowUpRecord['kind'], request: FollowUpRequest): Promise<FollowUpOutcome> {
    await this.random.turns();
    const record = this.provider.followUps.get(request.operationId);
    if (!record) return { outcome: 'declined', reason: 'Operation not found' };
    return record.truth === 'success' ? { outcome: 'success' } : { outcome: 'declined', reason: 'Declined by the provider' };
  }

  async parseNotification(raw: { body: string; headers: Record<string, string> }): Promise<InboundNotification> {
    let parsed: { reference?: string; signature?: string };
    try {
      parsed = JSON.parse(raw.body) as typeof parsed;
    } catch {
      return { verified: false };
    }
    const tx = parsed.reference ? this.provider.transactions.get(parsed.reference) : undefined;
    if (!tx || tx.truth === null || parsed.signature !== `signed:${tx.reference}`) return { verified: false };
    return { verified: true, paymentId: tx.paymentId, outcome: this.outcomeOf(tx) };
  }

  private open(request: PaymentRequest, kind: ProviderTransaction['kind']): ProviderTransaction {
    const tx: ProviderTransaction = {
      reference: this.provider.newReference(this.name),
      paymentId: request.paymentId,
      connector: this.name,
      kind,
      amount: request.amount,
      truth: null,
      awaitingPayer: null,
      pending: false,
      expiresAt: null,
      payerUrl: null,
    };
    this.provider.transactions.set(tx.reference, tx);
    return tx;
  }

  private pending(tx: ProviderTransaction): ConnectorOutcome {
    tx.expiresAt = this.provider.now() + SimulatedProvider.PENDING_LIFETIME_MS;
    return { outcome: 'pending', reference: tx.reference, expiresAt: new Date(tx.expiresAt).toISOString() };
  }

  private decide(tx: ProviderTransaction, truth: Truth): ConnectorOutcome {
    tx.truth = truth;
    return this.outcomeOf(tx);
  }

  /** Decided at the provider, but the answer never reaches the gateway. */
  private lost(tx: ProviderTransaction, truth: Truth): ConnectorOutcome {
    tx.truth = truth;
    return { outcome: 'unknown', detail: 'simulated timeout' };
  }

  private awaitPayer(tx: ProviderTransaction, kind: '3ds' | 'redirect', returnUrl: string): ConnectorOutcome {
    tx.awaitingPayer = kind;
    const url = `${returnUrl}${returnUrl.includes('?') ? '&' : '?'}ref=${encodeURIComponent(tx.reference)}`;
    tx.payerUrl = url;
    return { outcome: 'redirect', reference: tx.reference, redirect: { kind, url, method: 'GET', params: {} } };
  }

  private outcomeOf(tx: ProviderTransaction): ConnectorOutcome {
    return tx.truth === 'success'
      ? { outcome: 'success', reference: tx.reference, descriptor, authCode: 'SIM001' }
      : { outcome: 'declined', reason: 'Declined by the simulated provider', reference: tx.reference };
  }

  private async followUp(kind: FollowUpRecord['kind'], request: FollowUpRequest): Promise<FollowUpOutcome> {
    await this.random.turns();
    const truth = this.random.chance(0.85) ? 'success' : 'declined';
    this.provider.followUps.set(request.operationId, { kind, operationId: request.operationId, truth });
    if (this.random.chance(0.07)) return { outcome: 'unknown', detail: 'simulated timeout' };
    return truth === 'success' ? { outcome: 'success' } : { outcome: 'declined', reason: 'Declined by the provider' };
  }
}
