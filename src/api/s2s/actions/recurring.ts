/**
 * `RECURRING_SALE` and `RECURRING_DEBIT` on `/post`: the merchant charges a chain's stored card
 * without the payer. The router has already checked the key, the merchant, the IP and the fields;
 * then, in order: the hash, the chain (any mismatch is one `Incorrect transaction`, so a guessed or
 * borrowed pair tells nothing), the amount and currency in the chain's currency, the charge.
 */
import { chainCurrencyAccepts } from '../../../domain/payment/policy';
import { CardTokenNotFoundError, DuplicatePaymentError } from '../../../application/payments';
import { isCurrency, parseAmount } from '../../../domain/money';
import { orderIdHash } from '../../../domain/signatures';
import { requireHash } from '../../require-hash';
import { throwApiError } from '../../domain-errors';
import { errors, type FieldError } from '../../errors';
import { compileValidator } from '../../validation';
import type { ActionContext, S2sAction, S2sDeps } from '../s2s-action';
import { saleResponse, viewOf } from '../responses';
import { recurringSchema } from '../schemas';

type RecurringAction = 'RECURRING_SALE' | 'RECURRING_DEBIT';

export function recurringActions(deps: S2sDeps): Record<RecurringAction, S2sAction> {
  const validate = compileValidator(deps.ajv, recurringSchema);
  return {
    RECURRING_SALE: { validate, handle: (c) => recurringCharge(deps, c, 'RECURRING_SALE') },
    RECURRING_DEBIT: { validate, handle: (c) => recurringCharge(deps, c, 'RECURRING_DEBIT') },
  };
}

async function recurringCharge(deps: S2sDeps, { form, merchant, requestId }: ActionContext, action: RecurringAction) {
  const orderId = form.order_id as string;
  const sentCurrency = typeof form.order_currency === 'string' ? form.order_currency : undefined;
  // Shape first (validation before existence): a code that is no currency at all.
  if (sentCurrency !== undefined && !isCurrency(sentCurrency)) {
    throw errors.invalid([errors.field('order_currency', 'This value is not a valid currency.')]);
  }
  requireHash(form.hash, orderIdHash(orderId, merchant.password));

  const kind = action === 'RECURRING_DEBIT' ? 'debit' : 'sale';
  const chain = await deps.payments
    .recurringChain(merchant.merchantId, form.recurring_first_trans_id as string, form.recurring_token as string, kind)
    .catch((error: unknown) => throwApiError(error));

  // A chain charges in the currency its first payment was made in.
  const fieldErrors: FieldError[] = [];
  if (!chainCurrencyAccepts(chain.currency, sentCurrency)) {
    fieldErrors.push(errors.field('order_currency', `This value should be equal to ${chain.currency}.`));
  }
  const amountText = form.order_amount as string;
  const amount = parseAmount(amountText, chain.currency);
  if (!amount.ok) fieldErrors.push(errors.field('order_amount', amount.reason));
  if (fieldErrors.length || !amount.ok) throw errors.invalid(fieldErrors);
  // The request's own notification_url takes priority over the chain's, as for every request (spec Events 1).
  const notificationUrl = typeof form.notification_url === 'string' ? form.notification_url : undefined;
  if (notificationUrl !== undefined) {
    const problem = await deps.notificationUrls.problem(notificationUrl);
    if (problem) throw errors.invalid([errors.field('notification_url', problem)]);
  }

  try {
    const { payment } = await deps.payments.recurringPayment(chain, {
      merchantId: merchant.merchantId,
      channel: 's2s_card',
      kind,
      orderId,
      orderDescription: form.order_description as string,
      amount: amount.minor,
      amountText,
      // The callback reports the custom_data of this request, not the chain's first payment's.
      customData: (form.custom_data as Record<string, unknown>) ?? null,
      ...(notificationUrl !== undefined ? { notificationUrl } : {}),
      correlationId: requestId,
    });
    return saleResponse(viewOf(payment), action);
  } catch (error) {
    if (error instanceof DuplicatePaymentError) throw errors.duplicate();
    if (error instanceof CardTokenNotFoundError) throw errors.cardTokenNotFound();
    // Zero is no amount for a chain's later charge.
    throwApiError(error);
  }
}
