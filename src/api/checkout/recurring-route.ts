/**
 * `POST /api/v1/payment/recurring` (docs/reference/checkout.md#recurring-charge): the merchant charges a recurring chain again,
 * without the payer. The chain is named by its first payment and proven by its `recurring_token`;
 * one operation serves sale and debit chains, and the new payment is of the chain's kind and
 * currency. With `schedule_id` a schedule starts from this payment.
 *
 * Order: schema and field rules, hash, chain (`Incorrect transaction` for any pair that does not
 * match, so a guess tells nothing), amount in the chain's currency, schedule, then the charge.
 * The answer is the new payment as a status lookup reports it.
 */
import { chainCurrencyAccepts } from '../../domain/payment/policy';
import { DuplicatePaymentError, type RecurringChain, type ScheduleRequest } from '../../application/payments';
import type { ExistingPayment } from '../../domain/payment/state';
import { parseAmount } from '../../domain/money';
import { checkoutHash } from '../../domain/signatures';
import { throwApiError } from '../domain-errors';
import { errors, type FieldError } from '../errors';
import type { CheckoutRequest } from './merchant-request';
import { requireHash } from '../require-hash';
import type { CheckoutApiDeps, CheckoutRoute } from './checkout-route';
import { recurringSchema } from './schemas';
import { scheduleAmountOf, scheduleFieldProblems } from './session-fields';
import { checkoutPaymentStatus } from './status-response';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

type RecurringDeps = Pick<CheckoutApiDeps, 'payments' | 'schedules' | 'clock'>;

export function registerRecurringRoute(route: CheckoutRoute, deps: CheckoutApiDeps): void {
  route('/api/v1/payment/recurring', recurringSchema, (r) => recurringCharge(deps, r));
}

/** Amount (and `payment_schedule_amount`) in the chain's currency; `order.currency`, when sent, must be it. */
function moneyOf(b: Json, chain: ExistingPayment): { minor: number; text: string; scheduleAmount: { minor: number; text: string } | null } {
  const problems: FieldError[] = [];
  const order = b.order as Json;
  if (!chainCurrencyAccepts(chain.currency, order.currency)) {
    problems.push(errors.field('order.currency', `This value should be the currency of the first payment (${chain.currency}).`));
  }
  const parsed = parseAmount(order.amount, chain.currency);
  if (!parsed.ok) problems.push(errors.field('order.amount', parsed.reason));
  const scheduleAmount = b.payment_schedule_amount === undefined ? null : scheduleAmountOf(b.payment_schedule_amount, chain.currency, problems);
  if (problems.length || !parsed.ok) throw errors.invalid(problems);
  return { minor: parsed.minor, text: order.amount, scheduleAmount };
}

async function scheduleOf(deps: RecurringDeps, merchantId: string, b: Json, amount: { minor: number; text: string } | null): Promise<ScheduleRequest | undefined> {
  if (b.schedule_id === undefined) return undefined;
  try {
    const { rule } = await deps.schedules.info(merchantId, b.schedule_id);
    return {
      scheduleId: b.schedule_id,
      rule,
      ...(b.schedule_start_date !== undefined ? { startDate: b.schedule_start_date } : {}),
      ...(amount ? { amount } : {}),
    };
  } catch (error) {
    throwApiError(error);
  }
}

export async function recurringCharge(deps: RecurringDeps, { body, merchant, requestId }: CheckoutRequest): Promise<Record<string, unknown>> {
  const b = body as Json;
  const problems = scheduleFieldProblems(body, deps.clock.now().toISOString().slice(0, 10));
  if (problems.length) throw errors.invalid(problems);
  const order = b.order as Json;
  requireHash(b.hash, checkoutHash([b.recurring_init_trans_id, b.recurring_token, order.number, order.amount, order.description], merchant.password));

  let chain: RecurringChain;
  try {
    chain = await deps.payments.recurringChain(merchant.merchantId, b.recurring_init_trans_id, b.recurring_token, 'any');
  } catch (error) {
    throwApiError(error);
  }
  const money = moneyOf(b, chain);
  const schedule = await scheduleOf(deps, merchant.merchantId, b, money.scheduleAmount);
  try {
    const { payment } = await deps.payments.recurringPayment(chain, {
      merchantId: merchant.merchantId,
      channel: 'checkout',
      kind: chain.kind === 'debit' ? 'debit' : 'sale',
      orderId: order.number,
      orderDescription: order.description,
      amount: money.minor,
      amountText: money.text,
      // The callback carries this request's custom_data, not the first payment's (spec, Checkout recurring).
      customData: b.custom_data ?? null,
      correlationId: requestId,
      ...(schedule ? { schedule } : {}),
    });
    return checkoutPaymentStatus(payment, merchant.protocolMapping);
  } catch (error) {
    if (error instanceof DuplicatePaymentError) throw errors.duplicate();
    throwApiError(error);
  }
}
