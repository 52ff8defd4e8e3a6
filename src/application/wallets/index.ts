/**
 * Wallet payments' self-contained core: the tokens (`tokens`, the interface the payment flows
 * call), the merchant settings they need (`settings`) and what a page needs to open the payer's
 * own wallet (`device`).
 */
import type { ApplePayMerchantSessions } from '../ports/apple-pay-merchant-sessions';
import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import type { EventStore } from '../ports/event-store';
import type { WalletCrypto, WalletKeyCipher } from '../ports/wallet-crypto';
import { DeviceWallets } from './device-wallets';
import { WalletSettingsService } from './wallet-settings';
import { WalletTokens } from './wallet-tokens';

export class WalletService {
  readonly settings: WalletSettingsService;
  readonly tokens: WalletTokens;
  readonly device: DeviceWallets;

  constructor(deps: {
    store: EventStore;
    crypto: WalletCrypto;
    cipher: WalletKeyCipher;
    clock: Clock;
    /** Apple's Payment Session endpoint, for merchant validation. */
    merchantSessions: ApplePayMerchantSessions;
    logger?: Logger;
  }) {
    this.settings = new WalletSettingsService(deps);
    this.tokens = new WalletTokens({ ...deps, settings: this.settings });
    this.device = new DeviceWallets({ settings: this.settings, cipher: deps.cipher, sessions: deps.merchantSessions, ...(deps.logger ? { logger: deps.logger } : {}) });
  }
}

export { DeviceWallets, type MerchantSessionOutcome, type PagePayee, type PaymentRequestAnswer } from './device-wallets';
export { WalletSettingsService, type WalletSettingsInput, type WalletSettingsView } from './wallet-settings';
export { WalletTokens, isTokenReuse, missingForCardFlow, type OpenedWalletToken, type WalletMerchant } from './wallet-tokens';
