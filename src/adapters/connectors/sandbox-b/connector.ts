/**
 * A second sandbox acquirer ("sandbox-b"), with outcomes of its own (scenarios.ts): a merchant
 * routed to it and then to the built-in sandbox sees a soft decline here cascade there. Stateless,
 * like the built-in sandbox: its references remember what it decided.
 */
import type {
  Connector,
  ConnectorCapabilities,
  ConnectorOutcome,
  FollowUpOutcome,
  FollowUpRequest,
  InboundNotification,
  PayerReturnOutcome,
  PaymentRequest,
  StatusRequest,
} from '../../../application/ports/connector';
import { parseExpiry } from '../../../domain/card';
import { SANDBOX_B_DECLINE_REASONS, SANDBOX_B_DESCRIPTOR, SOFT, scenarioOf } from './scenarios';
import { authCode, newReference, rrn, scenarioOfReference } from './transformers';

export const SANDBOX_B_CAPABILITIES: ConnectorCapabilities = {
  methods: ['card'],
  currencies: ['EUR', 'USD', 'GBP'],
  dms: false,
  refundsViaApi: false,
  zeroAmount: false,
  cardOnFile: false,
  walletDecryption: false,
  payouts: false,
};

export class SandboxBConnector implements Connector {
  readonly name = 'sandbox-b';
  readonly capabilities = SANDBOX_B_CAPABILITIES;

  constructor(private readonly options: { now?: () => Date } = {}) {}

  async authorize(request: PaymentRequest): Promise<ConnectorOutcome> {
    if (request.instrument.kind !== 'card') return { outcome: 'declined', reason: 'Payment method not supported by this acquirer' };
    const card = request.instrument.card;
    const expiry = parseExpiry(card.expMonth, card.expYear, this.options.now?.() ?? new Date());
    if (!expiry.ok) return { outcome: 'declined', reason: expiry.reason };
    const scenario = scenarioOf(card);
    const reference = newReference(scenario);
    if (scenario === 'success') {
      return { outcome: 'success', reference, descriptor: SANDBOX_B_DESCRIPTOR, authCode: authCode(), rrn: rrn() };
    }
    return { outcome: 'declined', reason: SANDBOX_B_DECLINE_REASONS[scenario], reference, ...(SOFT.has(scenario) ? { soft: true } : {}) };
  }

  async payout(): Promise<ConnectorOutcome> {
    return { outcome: 'declined', reason: 'Payouts are not supported by this acquirer' };
  }

  /** It never sends a payer anywhere, so no return can be its. */
  async completePayerAction(): Promise<PayerReturnOutcome> {
    return { verified: false };
  }

  /** Nothing to capture: it takes no authorizations. */
  async capture(): Promise<FollowUpOutcome> {
    return { outcome: 'declined', reason: 'Captures are not supported by this acquirer' };
  }

  async void(request: FollowUpRequest): Promise<FollowUpOutcome> {
    return scenarioOfReference(request.reference) === 'success' ? { outcome: 'success' } : { outcome: 'declined', reason: 'No such settled transaction' };
  }

  /** Refunds are made in its own portal; the gateway never asks (refundsViaApi is false). */
  async refund(): Promise<FollowUpOutcome> {
    return { outcome: 'declined', reason: 'Refund via API is not supported' };
  }

  async reverse(): Promise<FollowUpOutcome> {
    return { outcome: 'declined', reason: 'No authorization to release' };
  }

  /** Stateless: an unanswered request is decided again from what the gateway recorded of it. */
  async status(request: StatusRequest): Promise<ConnectorOutcome> {
    if (!request.card) return { outcome: 'unknown', detail: 'no such transaction' };
    return this.authorize({
      paymentId: request.paymentId,
      merchantId: '',
      kind: request.kind,
      amount: request.amount,
      currency: request.currency,
      instrument: { kind: 'card', card: { number: '', expMonth: request.card.expMonth, expYear: request.card.expYear } },
      returnUrl: request.returnUrl,
    });
  }

  async followUpStatus(kind: 'capture' | 'void' | 'refund' | 'reversal', request: FollowUpRequest): Promise<FollowUpOutcome> {
    switch (kind) {
      case 'void':
        return this.void(request);
      case 'capture':
        return this.capture();
      case 'refund':
        return this.refund();
      case 'reversal':
        return this.reverse();
    }
  }

  async parseNotification(): Promise<InboundNotification> {
    return { verified: false };
  }
}
