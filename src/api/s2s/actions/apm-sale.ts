/**
 * S2S APM `SALE` (decisions.md §7): a SALE with a non-empty `brand` pays with that alternative
 * method. Checks, in order: the fields' shapes (the router, apmSaleSchema); the brand exists in this
 * deployment (`204011 Payment system/brand not found.`) and is enabled for the merchant and one of
 * its connectors (`204006 Payment system/brand not supported.`); the amount and the method's
 * `parameters[...]` against its catalogue entry (field errors); the APM hash; `auth=Y` only for a
 * wallet brand (`204005`); then the payment, whose answer is in APM's shape (apm-responses.ts).
 */
import { CardTokenNotFoundError, DuplicatePaymentError } from '../../../application/payments';
import { merchantConnectors } from '../../../domain/merchant/connectors';
import { isWalletMethod, methodEnabled } from '../../../domain/merchant/methods';
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
import { formString as str, type ActionContext, type S2sDeps } from '../s2s-action';

export const brandErrors = {
  notFound: () => new ApiError(400, 204011, 'Payment system/brand not found.'),
  notSupported: () => new ApiError(400, 204006, 'Payment system/brand not supported.'),
};

export async function apmSale(deps: S2sDeps, { form, merchant, requestId }: ActionContext) {
  const brand = form.brand as string;
  if (!deps.payments.offeredMethods().includes(brand)) throw brandErrors.notFound();
  const connectors = merchantConnectors(merchant);
  if (!methodEnabled(merchant, brand) || deps.payments.connectorsOffering(connectors, brand).length === 0) throw brandErrors.notSupported();

  const fieldErrors: FieldError[] = [];
  const currency = form.order_currency as string;
  if (!isCurrency(currency)) fieldErrors.push(errors.field('order_currency', 'This value is not a valid currency.'));
  const amountText = form.order_amount as string;
  const amount = isCurrency(currency) ? parseAmount(amountText, currency) : null;
  if (amount && !amount.ok) fieldErrors.push(errors.field('order_amount', amount.reason));
  const parameters = (form.parameters as Record<string, unknown> | undefined) ?? null;
  const payer = payerOf(form);
  const description = deps.payments.describeMethod(connectors, brand)!;
  for (const problem of methodParameterProblems(description, parameters, { phone: payer.phone, country: payer.country })) {
    fieldErrors.push({ error_code: 100000, error_message: problem });
  }
  if (fieldErrors.length || !amount || !amount.ok) throw errors.invalid(fieldErrors);

  const identifier = form.identifier as string;
  const orderId = form.order_id as string;
  requireHash(form.hash, apmSaleHash({ identifier, orderId, orderAmount: amountText, orderCurrency: currency, password: merchant.password }));

  // Holds are taken by wallet tokens only (decisions.md §7); whether the connector can hold is routing's to say.
  const kind = form.auth === 'Y' ? 'authorization' : 'sale';
  if (kind === 'authorization' && !isWalletMethod(brand)) throw errors.actionNotSupported();

  const notificationUrl = str(form, 'notification_url');
  if (notificationUrl !== undefined) {
    const problem = await deps.notificationUrls.problem(notificationUrl);
    if (problem) throw errors.invalid([errors.field('notification_url', problem)]);
  }
  const method: MethodSnapshot = {
    brand,
    parameters: parameters ?? {},
    identifier,
    returnUrl: form.return_url as string,
    ...(str(form, 'return_url_target') ? { returnUrlTarget: str(form, 'return_url_target') } : {}),
    ...(str(form, 'channel_id') ? { channelId: str(form, 'channel_id') } : {}),
  };
  try {
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
    // No connector of the merchant's can take it (a hold, a currency, a zero amount): 204005.
    throwApiError(error);
  }
}
