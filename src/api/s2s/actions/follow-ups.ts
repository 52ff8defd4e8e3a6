/**
 * `CAPTURE`, `VOID` and `CREDITVOID` of a payment, by `trans_id`, for payments of both protocols:
 * each is checked with the hash formula of the protocol that made the payment (protocol.ts). S2S
 * APM answers CAPTURE and VOID as S2S CARD does; its CREDITVOID may leave out `amount` (all that
 * remains: the hold, or the unrefunded settlement).
 */
import type { MerchantAccount } from '../../../application/merchant-service';
import { DomainError } from '../../../domain/errors';
import { formatMinor, parseAmount } from '../../../domain/money';
import type { ExistingPayment } from '../../../domain/payment/state';
import { apmCreditvoidHash, apmTransIdHash } from '../../../domain/signatures';
import { throwApiError } from '../../domain-errors';
import { errors } from '../../errors';
import { transDate } from '../responses';
import { formString as str, type ActionContext, type FormBody, type S2sDeps } from '../s2s-action';
import { protocolOf, requireFollowUpHash, signedAs } from './protocol';

function optionalAmount(form: FormBody, name: string, currency: string): { minor: number; text: string } | null {
  const text = str(form, name);
  if (text === undefined) return null;
  const parsed = parseAmount(text, currency);
  if (!parsed.ok) throw errors.invalid([errors.field(name, parsed.reason)]);
  return { minor: parsed.minor, text };
}

/** Existence is checked on the stream itself (the source of truth), never on a lagging read model. */
export async function currentPayment(deps: S2sDeps, merchant: MerchantAccount, transId: string): Promise<ExistingPayment | null> {
  try {
    const p = await deps.payments.current(transId);
    return p.merchantId === merchant.merchantId ? p : null;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'payment_not_found') return null;
    throw error;
  }
}

export async function capture(deps: S2sDeps, { form, merchant, requestId }: ActionContext) {
  const transId = form.trans_id as string;
  const payment = await currentPayment(deps, merchant, transId);
  requireFollowUpHash(form, merchant, payment && protocolOf(payment), apmTransIdHash);
  if (!payment) throw errors.transactionNotFound();
  const amount = optionalAmount(form, 'amount', payment.currency);
  try {
    const { payment: after, outcome, amountText } = await deps.payments.capture(merchant.merchantId, transId, amount, requestId);
    const details = {
      order_id: after.orderId,
      trans_id: after.paymentId,
      trans_date: transDate(deps.clock.now().toISOString()),
      amount: amountText,
      currency: after.currency,
    };
    if (outcome.outcome === 'success') {
      return { action: 'CAPTURE', result: 'SUCCESS', status: 'SETTLED', ...details, descriptor: after.descriptor ?? '' };
    }
    if (outcome.outcome === 'declined') {
      return { action: 'CAPTURE', result: 'DECLINED', status: after.status, ...details, decline_reason: outcome.reason };
    }
    return { action: 'CAPTURE', result: 'ACCEPTED', status: after.status, ...details };
  } catch (error) {
    throwApiError(error, { payment_not_found: errors.transactionNotFound });
  }
}

export async function voidPayment(deps: S2sDeps, { form, merchant, requestId }: ActionContext) {
  const transId = form.trans_id as string;
  const payment = await currentPayment(deps, merchant, transId);
  requireFollowUpHash(form, merchant, payment && protocolOf(payment), apmTransIdHash);
  try {
    const { payment: after, outcome } = await deps.payments.void(merchant.merchantId, transId, requestId);
    const details = { order_id: after.orderId, trans_id: after.paymentId, trans_date: transDate(deps.clock.now().toISOString()) };
    if (outcome.outcome === 'success') return { action: 'VOID', result: 'SUCCESS', status: 'VOID', ...details };
    if (outcome.outcome === 'declined') {
      return { action: 'VOID', result: 'DECLINED', status: after.status, ...details, decline_reason: outcome.reason };
    }
    return { action: 'VOID', result: 'ACCEPTED', status: after.status, ...details };
  } catch (error) {
    throwApiError(error);
  }
}

/** What an APM CREDITVOID without `amount` asks for: all the hold, or all that is still unrefunded. */
function remainingOf(p: ExistingPayment): { minor: number; text: string } {
  const minor = p.phase === 'authorized' ? p.heldAmount : p.settledAmount - p.refundedAmount;
  return { minor, text: formatMinor(minor, p.currency) };
}

export async function creditVoid(deps: S2sDeps, { form, merchant, requestId }: ActionContext) {
  const transId = form.trans_id as string;
  const payment = await currentPayment(deps, merchant, transId);
  const protocol = payment && protocolOf(payment);
  // Only an APM CREDITVOID may leave out the amount (for a payment the merchant does not have, one
  // signed with the APM formula is taken as APM); anything else needs it, before the hash is checked.
  const apm = protocol === 'apm' || (protocol === null && signedAs(form, apmCreditvoidHash(form.trans_id as string, merchant.password)));
  if (!apm && str(form, 'amount') === undefined) throw errors.invalid([errors.field('amount', 'This value should not be blank.')]);
  requireFollowUpHash(form, merchant, protocol, apmCreditvoidHash);
  if (!payment) throw errors.paymentNotFound();
  const amount = optionalAmount(form, 'amount', payment.currency) ?? remainingOf(payment);
  try {
    const { payment: after } = await deps.payments.creditVoid(merchant.merchantId, transId, amount, merchant.refundsEnabled, requestId);
    // CREDITVOID only acknowledges; its outcome is reported by callback and status lookup.
    return { action: 'CREDITVOID', result: 'ACCEPTED', trans_id: after.paymentId, order_id: after.orderId };
  } catch (error) {
    throwApiError(error);
  }
}
