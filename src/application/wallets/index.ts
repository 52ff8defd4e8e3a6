/**
 * Wallet payments' self-contained core: the tokens (`tokens`, the interface the payment flows
 * call) and the merchant settings they need (`settings`).
 */
import type { Clock } from '../ports/clock';
import type { EventStore } from '../ports/event-store';
import type { WalletCrypto, WalletKeyCipher } from '../ports/wallet-crypto';
import { WalletSettingsService } from './wallet-settings';
import { WalletTokens } from './wallet-tokens';

export class WalletService {
  readonly settings: WalletSettingsService;
  readonly tokens: WalletTokens;

  constructor(deps: { store: EventStore; crypto: WalletCrypto; cipher: WalletKeyCipher; clock: Clock }) {
    this.settings = new WalletSettingsService(deps);
    this.tokens = new WalletTokens({ ...deps, settings: this.settings });
  }
}

export { WalletSettingsService, type WalletSettingsInput, type WalletSettingsView } from './wallet-settings';
export { WalletTokens, isTokenReuse, missingForCardFlow, type OpenedWalletToken, type WalletMerchant } from './wallet-tokens';
