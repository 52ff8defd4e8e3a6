/** Apple Pay and Google Pay: their tokens and the merchants' wallet settings. */
import { appleMerchantSessionsFor } from '../adapters/wallets/apple-merchant-sessions';
import { NodeWalletCrypto, walletKeyCipher } from '../adapters/wallets/node-wallet-crypto';
import { walletTrustFor } from '../adapters/wallets/trust';
import { WalletService } from '../application/wallets';
import type { Core } from './core';

export function wireWallets({ config, options, store, key, clock, logger }: Core): WalletService {
  // The sandbox trusts only its own wallet roots (wallet init); production only the wallets' real ones.
  return new WalletService({
    store,
    crypto: new NodeWalletCrypto(options.walletTrust ?? walletTrustFor(config.environment, config.dataDir, process.env)),
    cipher: walletKeyCipher(key),
    clock,
    merchantSessions: appleMerchantSessionsFor(config.appleMerchantValidation),
    logger,
  });
}
