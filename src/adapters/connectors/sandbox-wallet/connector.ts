/**
 * The sandbox's wallet provider ("sandbox-wallet"): the wallets' virtual flow (docs/wallets.md#two-flows).
 * It takes Apple Pay and Google Pay tokens undecrypted (instrument `wallet_token`), as a provider
 * holding its own wallet keys does, so the gateway keeps no card and sees none. The payer approved
 * the payment in the wallet already, so there is no page: the outcome follows the payer's email,
 * else the S2S APM `identifier` (`fail@gmail.com` declines, anyone else pays). It reads only the
 * token's shape: outcomes by card expiry (docs/reference/sandbox.md#cards-by-expiry) are the card flow's, where the gateway
 * decrypts the token and the card sandbox decides. No holds, chains or payouts: the virtual flow
 * stores nothing for them.
 */
import type {
  Connector,
  ConnectorCapabilities,
  ConnectorOutcome,
  FollowUpOutcome,
  InboundNotification,
  PayerReturnOutcome,
  PaymentRequest,
  StatusRequest,
} from '../../../application/ports/connector';
import type { MethodDescription } from '../../../domain/payment/method-fields';
import { walletMethodDescription } from '../../../domain/payment/wallet-method';
import { WALLETS, isWallet } from '../../../domain/wallets/token-shape';
import { SANDBOX_WALLET_DESCRIPTOR, SANDBOX_WALLET_REASONS, declinedPayer, newReference, tokenReadable } from './transformers';

export const SANDBOX_WALLET_NAME = 'sandbox-wallet';

export const SANDBOX_WALLET_CAPABILITIES: ConnectorCapabilities = {
  methods: [...WALLETS],
  currencies: 'any',
  dms: false,
  refundsViaApi: true,
  zeroAmount: false,
  cardOnFile: false,
  // It decrypts tokens itself; cards the gateway decrypted go to the card sandbox.
  walletDecryption: false,
  payouts: false,
};

export class SandboxWalletConnector implements Connector {
  readonly name = SANDBOX_WALLET_NAME;
  readonly capabilities = SANDBOX_WALLET_CAPABILITIES;

  describeMethod(method: string): MethodDescription | null {
    return isWallet(method) ? walletMethodDescription(method) : null;
  }

  async authorize(request: PaymentRequest): Promise<ConnectorOutcome> {
    const instrument = request.instrument;
    if (instrument.kind !== 'wallet_token' || !isWallet(instrument.wallet)) return { outcome: 'declined', reason: SANDBOX_WALLET_REASONS.unsupported };
    if (request.kind !== 'sale' && request.kind !== 'debit') return { outcome: 'declined', reason: SANDBOX_WALLET_REASONS.noHolds };
    const reference = newReference(instrument.wallet);
    if (!tokenReadable(instrument.wallet, instrument.token)) return { outcome: 'declined', reason: SANDBOX_WALLET_REASONS.invalidToken, reference };
    return this.decide(request.payerEmail ?? instrument.identifier, reference);
  }

  private decide(who: string | undefined, reference: string): ConnectorOutcome {
    if (declinedPayer(who)) return { outcome: 'declined', reason: SANDBOX_WALLET_REASONS.declined, reference };
    return { outcome: 'success', reference, descriptor: SANDBOX_WALLET_DESCRIPTOR };
  }

  async payout(): Promise<ConnectorOutcome> {
    return { outcome: 'declined', reason: 'Payouts are not supported by this provider' };
  }

  /** It never sends a payer anywhere, so no return can be its. */
  async completePayerAction(): Promise<PayerReturnOutcome> {
    return { verified: false };
  }

  async capture(): Promise<FollowUpOutcome> {
    return { outcome: 'declined', reason: SANDBOX_WALLET_REASONS.noHolds };
  }

  async void(): Promise<FollowUpOutcome> {
    return { outcome: 'success' };
  }

  async refund(): Promise<FollowUpOutcome> {
    return { outcome: 'success' };
  }

  async reverse(): Promise<FollowUpOutcome> {
    return { outcome: 'declined', reason: SANDBOX_WALLET_REASONS.noHolds };
  }

  /** What it decided, found by what the gateway recorded (the wallet and the payer): the same again. */
  async status(request: StatusRequest): Promise<ConnectorOutcome> {
    const wallet = request.method?.method;
    if (!wallet || !isWallet(wallet)) return { outcome: 'unknown', detail: 'no such transaction' };
    return this.decide(request.payerEmail ?? request.method?.identifier, request.reference ?? newReference(wallet));
  }

  async followUpStatus(kind: 'capture' | 'void' | 'refund' | 'reversal'): Promise<FollowUpOutcome> {
    return kind === 'capture' || kind === 'reversal' ? { outcome: 'declined', reason: SANDBOX_WALLET_REASONS.noHolds } : { outcome: 'success' };
  }

  /** It decides while it is asked; it never notifies later. */
  async parseNotification(): Promise<InboundNotification> {
    return { verified: false };
  }
}
