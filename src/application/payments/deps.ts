import type { CardVault } from '../ports/card-vault';
import type { Clock } from '../ports/clock';
import type { ConnectorRegistry } from '../ports/connector-registry';
import type { EventStore } from '../ports/event-store';
import type { Logger } from '../ports/logger';
import type { WalletTokens } from '../wallets';

/** What every payment use case may use. */
export interface PaymentDeps {
  store: EventStore;
  connectors: ConnectorRegistry;
  vault: CardVault;
  clock: Clock;
  logger: Logger;
  /** Public base URL: the payer's way back to the gateway from any connector's page. */
  baseUrl: string;
  /** How long a repeat waits for the original request of the same order to finish. */
  replayWaitMs?: number;
  /** Wallet tokens (the card flow's verify and decrypt); absent, wallet payments are refused (204018). */
  wallets?: Pick<WalletTokens, 'parse' | 'cardFlowAvailable' | 'openForPayment'>;
}
