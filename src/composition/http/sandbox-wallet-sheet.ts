/** The sandbox's simulated wallet sheet for the hosted page: its cards, and tokens for the session's merchant. */
import { SHEET_CARDS, isSheetCard, simulatedWalletSheet } from '../../adapters/wallets/simulated-sheet';
import type { WalletSheetDeps } from '../../api/checkout-page/routes';
import type { MerchantService } from '../../application/merchant-service';
import type { Clock } from '../../application/ports/clock';
import type { WalletService } from '../../application/wallets';

export function sandboxWalletSheet(dataDir: string, clock: Clock, merchants: MerchantService, wallets: WalletService): WalletSheetDeps {
  const mint = simulatedWalletSheet({ dataDir, now: () => clock.now(), settings: wallets.settings });
  return {
    cards: Object.entries(SHEET_CARDS).map(([id, { label }]) => ({ id, label })),
    async token(choice) {
      const merchant = await merchants.byId(choice.merchantId);
      if (!merchant || !isSheetCard(choice.card)) throw new Error('the wallet sheet was asked for an unknown merchant or card');
      return mint({ merchantId: merchant.merchantId, clientKey: merchant.clientKey, wallet: choice.wallet, card: choice.card, ...(choice.panOnly ? { authMethod: 'PAN_ONLY' as const } : {}) });
    },
  };
}
