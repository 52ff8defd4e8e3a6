/**
 * An S2S APM SALE, once its form parsed and its hash checked: holds only for wallet tokens, no zero
 * sale, a notification URL callbacks can reach; then the payment with the method, or with a wallet
 * brand's token (the card flow when the merchant has the wallet's keys and a connector taking
 * decrypted cards, else the virtual flow: docs/wallets.md#two-flows).
 */
import { DomainError } from '../../../domain/errors';
import { isWalletMethod } from '../../../domain/merchant/methods';
import type { PaymentDeps } from '../deps';
import type { SaleResult } from '../types';
import { walletSale } from '../wallet/handler';
import { refuseUnreachable, type SaleChecks } from './checks';
import type { MethodSaleCommand } from './command';
import { sale } from './handler';

export async function methodSale(deps: PaymentDeps, command: MethodSaleCommand, checks: SaleChecks): Promise<SaleResult> {
  const { order, terms, method } = command;
  // Holds are taken by wallet tokens only (docs/apm.md#after-the-sale); whether the connector can hold is routing's to say.
  if (order.kind === 'authorization' && !isWalletMethod(method.brand)) throw new DomainError('action_not_supported', 'Payment action not supported');
  // Zero is for an authorization-only request (spec Errors rule 5): a plain sale answers as a card or
  // Checkout sale does, before any connector is asked (none of which would take it: 204005).
  if (order.amount === 0 && order.kind === 'sale') throw new DomainError('amount_not_positive', 'amount: This value should be greater than 0.');
  await refuseUnreachable(checks, order.notificationUrl);
  const request = {
    merchantId: terms.merchantId,
    channel: 's2s_apm' as const,
    ...order,
    termUrl3ds: null,
    parameters: null,
    recurringInit: false,
    correlationId: command.correlationId,
    cardOnFileSupport: terms.cardOnFileSupport,
    connectors: terms.connectors,
    merchantPaymentMode: terms.paymentMode,
    merchantSettingsAt: terms.settingsAt,
  };
  if (!command.wallet) return sale(deps, { ...request, method, storeCard: false });
  const { brand: _wallet, parameters: _token, ...methodFields } = method;
  // S2S APM falls back to the virtual flow (docs/wallets.md#two-flows).
  return walletSale(deps, { ...request, clientKey: terms.clientKey, ...command.wallet, flows: 'card_or_virtual', methodFields });
}
