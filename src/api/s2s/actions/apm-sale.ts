/**
 * S2S APM `SALE` (docs/reference/s2s-apm.md#sale): a SALE with a non-empty `brand` pays with that alternative
 * method. Checks, in order: the fields' shapes (the router, apmSaleSchema); the brand exists in this
 * deployment (`204011 Payment system/brand not found.`) and is enabled for the merchant and one of
 * its connectors (`204006 Payment system/brand not supported.`); the amount and the method's
 * `parameters[...]` against its catalogue entry (field errors); the APM hash; `auth=Y` only for a
 * wallet brand (`204005`); then the payment, whose answer is in APM's shape (apm-responses.ts).
 *
 * A wallet brand (`applepay`, `googlepay`) pays with `parameters[paymentToken]`, the token exactly as
 * the wallet gave it (docs/wallets.md#two-flows): in the card flow when the merchant has the wallet's keys and
 * a connector taking decrypted wallet cards (holds with `auth=Y` allowed), else in the virtual flow
 * through a connector offering the wallet (no holds: 204005); neither: 204018. The token itself is
 * never recorded as a parameter of the payment.
 */
import { CardTokenNotFoundError, DuplicatePaymentError } from '../../../application/payments';
import { merchantConnectors } from '../../../domain/merchant/connectors';
import { isWalletMethod, methodEnabled } from '../../../domain/merchant/methods';
import { WALLET_TOKEN_PARAMETER, walletMethodDescription } from '../../../domain/payment/wallet-method';
import { isWallet, type Wallet } from '../../../domain/wallets/token-shape';
import { isCurrency, parseAmount } from '../../../domain/money';
import type { MethodSnapshot } from '../../../domain/payment/events';
import { methodParameterProblems } from '../../../domain/payment/method-fields';
import { apmSaleHash } from '../../../domain/signatures';
import { throwApiError } from '../../domain-errors';
import { ApiError, errors, type FieldError } from '../../errors';
import { requireHash } from '../../require-hash';
import { apmSaleResponse } from '../apm-responses';
import { payerOf } from '../payer-fields';
import { viewOf } from '../responses';
import { throwWalletRefusal, walletTokenProblem } from '../wallet-refusals';
import { formString as str, type ActionContext, type S2sDeps } from '../s2s-action';

export const brandErrors = {
  notFound: () => new ApiError(400, 204011, 'Payment system/brand not found.'),
  notSupported: () => new ApiError(400, 204006, 'Payment system/brand not supported.'),
};

export async function apmSale(deps: S2sDeps, { form, merchant, requestId }: ActionContext) {
  const brand = form.brand as string;
  if (!deps.payments.offeredMethods().includes(brand)) throw brandErrors.notFound();
  const connectors = merchantConnectors(merchant);
  const wallet: Wallet | null = isWallet(brand) ? brand : null;
  // A wallet may be paid in the card flow by a connector that does not offer it by name: which flow
  // (or 204018 for neither) is the wallet payment's to say.
  if (!methodEnabled(merchant, brand) || (!wallet && deps.payments.connectorsOffering(connectors, brand).length === 0)) throw brandErrors.notSupported();
  // A method that only pays money out takes no payer's money (CREDIT2VIRTUAL refuses the converse alike).
  if (!wallet && deps.payments.describeMethod(connectors, brand)?.payout) throw errors.actionNotSupported();

  const fieldErrors: FieldError[] = [];
  const currency = form.order_currency as string;
  if (!isCurrency(currency)) fieldErrors.push(errors.field('order_currency', 'This value is not a valid currency.'));
  const amountText = form.order_amount as string;
  const amount = isCurrency(currency) ? parseAmount(amountText, currency) : null;
  if (amount && !amount.ok) fieldErrors.push(errors.field('order_amount', amount.reason));
  const parameters = (form.parameters as Record<string, unknown> | undefined) ?? null;
  const payer = payerOf(form);
  const description = wallet ? walletMethodDescription(wallet) : deps.payments.describeMethod(connectors, brand)!;
  for (const problem of methodParameterProblems(description, parameters, { phone: payer.phone, country: payer.country })) {
    fieldErrors.push({ error_code: 100000, error_message: problem });
  }
  const walletToken = wallet ? parameters?.[WALLET_TOKEN_PARAMETER] : undefined;
  if (wallet && typeof walletToken === 'string' && walletToken !== '') {
    const problem = walletTokenProblem(wallet, walletToken, `parameters[${WALLET_TOKEN_PARAMETER}]`);
    if (problem) fieldErrors.push(problem);
  }
  if (fieldErrors.length || !amount || !amount.ok) throw errors.invalid(fieldErrors);

  const identifier = form.identifier as string;
  const orderId = form.order_id as string;
  requireHash(form.hash, apmSaleHash({ identifier, orderId, orderAmount: amountText, orderCurrency: currency, password: merchant.password }));

  // Holds are taken by wallet tokens only (docs/apm.md#after-the-sale); whether the connector can hold is routing's to say.
  const kind = form.auth === 'Y' ? 'authorization' : 'sale';
  if (kind === 'authorization' && !isWalletMethod(brand)) throw errors.actionNotSupported();
  // Zero is for an authorization-only request (spec Errors rule 5): a plain sale answers as a card or
  // Checkout sale does, before any connector is asked (none of which would take it: 204005).
  if (amount.minor === 0 && kind === 'sale') throw errors.zeroAmount();

  const notificationUrl = str(form, 'notification_url');
  if (notificationUrl !== undefined) {
    const problem = await deps.notificationUrls.problem(notificationUrl);
    if (problem) throw errors.invalid([errors.field('notification_url', problem)]);
  }
  const methodFields: Omit<MethodSnapshot, 'brand' | 'parameters'> = {
    identifier,
    returnUrl: form.return_url as string,
    ...(str(form, 'return_url_target') ? { returnUrlTarget: str(form, 'return_url_target') } : {}),
    ...(str(form, 'channel_id') ? { channelId: str(form, 'channel_id') } : {}),
  };
  const method: MethodSnapshot = { brand, parameters: parameters ?? {}, ...methodFields };
  try {
    if (wallet) {
      const result = await deps.payments.walletSale({
        merchantId: merchant.merchantId,
        clientKey: merchant.clientKey,
        channel: 's2s_apm',
        wallet,
        token: walletToken as string,
        // S2S APM falls back to the virtual flow (docs/wallets.md#two-flows).
        flows: 'card_or_virtual',
        methodFields,
        kind,
        orderId,
        orderDescription: form.order_description as string,
        currency,
        amount: amount.minor,
        amountText,
        payer,
        termUrl3ds: null,
        notificationUrl: notificationUrl ?? null,
        customData: (form.custom_data as Record<string, unknown>) ?? null,
        parameters: null,
        recurringInit: false,
        correlationId: requestId,
        connectors,
        merchantPaymentMode: merchant.paymentMode,
      });
      return apmSaleResponse(viewOf(result.payment));
    }
    const result = await deps.payments.sale({
      merchantId: merchant.merchantId,
      channel: 's2s_apm',
      kind,
      orderId,
      orderDescription: form.order_description as string,
      currency,
      amount: amount.minor,
      amountText,
      method,
      payer,
      termUrl3ds: null,
      notificationUrl: notificationUrl ?? null,
      customData: (form.custom_data as Record<string, unknown>) ?? null,
      parameters: null,
      recurringInit: false,
      storeCard: false,
      correlationId: requestId,
      connectors,
      merchantPaymentMode: merchant.paymentMode,
    });
    return apmSaleResponse(viewOf(result.payment));
  } catch (error) {
    if (error instanceof DuplicatePaymentError) throw errors.duplicate();
    if (error instanceof CardTokenNotFoundError) throw errors.cardTokenNotFound();
    throwWalletRefusal(error, `parameters[${WALLET_TOKEN_PARAMETER}]`);
    // No connector of the merchant's can take it (a hold, a currency, a zero amount): 204005.
    throwApiError(error);
  }
}
