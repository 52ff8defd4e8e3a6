/**
 * An S2S CARD SALE, once its form parsed and its hash checked: a wallet the merchant takes, a
 * notification URL callbacks can reach, the chain's schedule; then the payment, with the card or in
 * the wallets' card flow only (without it, 204018: docs/reference/s2s-card.md#wallet-sale).
 */
import { isWallet, type Wallet } from '../../../domain/wallets/token-shape';
import { WalletNotConfigured } from '../../../domain/wallets/refusals';
import type { PaymentDeps } from '../deps';
import type { SaleRequest, SaleResult } from '../types';
import { walletSale } from '../wallet/handler';
import { refuseUnreachable, scheduleRequestOf, type SaleChecks } from './checks';
import type { CardSaleCommand } from './command';
import { sale } from './handler';
import type { MerchantTerms } from './merchant-terms';

export async function cardSale(deps: PaymentDeps, command: CardSaleCommand, checks: SaleChecks): Promise<SaleResult> {
  const { terms } = command;
  const pays = command.pays.kind === 'wallet' ? { ...command.pays, wallet: takenWallet(terms, command.pays.wallet) } : command.pays;
  await refuseUnreachable(checks, command.order.notificationUrl);
  const schedule = command.schedule ? await scheduleRequestOf(checks, terms.merchantId, command.schedule) : null;
  const order = { ...orderOf(command), ...(schedule ? { schedule } : {}) };
  if (pays.kind === 'wallet') return walletSale(deps, { ...order, clientKey: terms.clientKey, wallet: pays.wallet, token: pays.token, flows: 'card' });
  return sale(deps, { ...order, card: pays.card, storeCard: pays.storeCard, ...(pays.payerPresent ? {} : { payerPresent: false }) });
}

/** A wallet this merchant does not take, or one the gateway does not know, is refused as not configured (204018). */
function takenWallet(terms: MerchantTerms, wallet: string): Wallet {
  if (!isWallet(wallet) || !terms.methodEnabled(wallet)) throw new WalletNotConfigured(`${wallet} is not taken`);
  return wallet;
}

/** What a SALE asks of the payment whether the card is on the form, stored, or in a wallet token. */
function orderOf(command: CardSaleCommand): Omit<SaleRequest, 'card' | 'method' | 'walletToken' | 'storeCard'> {
  const { terms, order } = command;
  return {
    merchantId: terms.merchantId,
    ...order,
    termUrl3ds: command.termUrl3ds,
    ...(command.termUrlTarget ? { termUrlTarget: command.termUrlTarget } : {}),
    parameters: command.parameters,
    recurringInit: command.recurringInit,
    correlationId: command.correlationId,
    cardOnFileSupport: terms.cardOnFileSupport,
    connectors: terms.connectors,
    merchantPaymentMode: terms.paymentMode,
    merchantSettingsAt: terms.settingsAt,
  };
}
