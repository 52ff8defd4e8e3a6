/** The order part of an S2S SALE's form, card or APM alike: the currency and amount checked, the rest as sent. */
import { isCurrency, parseAmount, type AmountResult } from '../../../domain/money';
import type { PaymentKind } from '../../../domain/payment/events';
import type { SaleOrder } from './command';
import { fieldProblem, formString, payerOf, type SaleForm } from './form-fields';

export interface OrderAmount {
  currency: string;
  amountText: string;
  /** Null when the currency is no currency (nothing to read the amount in). */
  amount: AmountResult | null;
}

/** The currency and amount, their problems added to `problems`. */
export function orderAmountOf(form: SaleForm, problems: string[]): OrderAmount {
  const currency = form.order_currency as string;
  if (!isCurrency(currency)) problems.push(fieldProblem('order_currency', 'This value is not a valid currency.'));
  const amountText = form.order_amount as string;
  const amount = isCurrency(currency) ? parseAmount(amountText, currency) : null;
  if (amount && !amount.ok) problems.push(fieldProblem('order_amount', amount.reason));
  return { currency, amountText, amount };
}

/** The order once its amount parsed; the field schema has already checked the rest's shapes. */
export function saleOrderOf(form: SaleForm, kind: PaymentKind, money: OrderAmount & { amount: { ok: true; minor: number } }): SaleOrder {
  return {
    kind,
    orderId: form.order_id as string,
    orderDescription: form.order_description as string,
    currency: money.currency,
    amount: money.amount.minor,
    amountText: money.amountText,
    payer: payerOf(form),
    notificationUrl: formString(form, 'notification_url') ?? null,
    customData: (form.custom_data as Record<string, unknown>) ?? null,
  };
}

/** `auth=Y` asks for a hold. */
export const kindOf = (form: SaleForm): PaymentKind => (form.auth === 'Y' ? 'authorization' : 'sale');
