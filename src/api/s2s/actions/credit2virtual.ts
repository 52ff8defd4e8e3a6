/**
 * S2S APM `CREDIT2VIRTUAL` (docs/reference/s2s-apm.md#credit2virtual): a payout from the merchant's payout balance with a
 * payout method (`brand`): a payee's mobile-money wallet (`sb-momo`) or the email variant
 * (`sb-payout-email`). Always APM (docs/reference/README.md#addresses-and-transport). Checks, in order: the fields' shapes (the
 * router, credit2VirtualSchema); the brand exists (`204011`), the merchant takes it and one of its
 * connectors offers it (`204006`), and it pays out (`204005`); the currency, the amount and the
 * method's parameters (field errors, src/domain/payouts/payout-rules.ts); the hash
 * `md5(upper(strrev(order_id + order_amount + order_currency)) + password)`; the duplicate rule.
 *
 * Answered `SUCCESS/SETTLED`, `DECLINED/DECLINED` with `decline_reason` (`Insufficient payout
 * balance` when the balance cannot cover it), or `UNDEFINED/PREPARE` while the provider decides.
 */
import { DuplicatePaymentError } from '../../../application/payments';
import { merchantConnectors } from '../../../domain/merchant/connectors';
import { methodEnabled } from '../../../domain/merchant/methods';
import type { MethodSnapshot, PayerSnapshot } from '../../../domain/payment/events';
import { methodParameterProblems } from '../../../domain/payment/method-fields';
import type { ExistingPayment } from '../../../domain/payment/state';
import { payoutProblems } from '../../../domain/payouts/payout-rules';
import { credit2VirtualHash } from '../../../domain/signatures';
import { throwApiError } from '../../domain-errors';
import { errors, type FieldError } from '../../errors';
import { requireHash } from '../../require-hash';
import { apmAnswerHead } from '../apm-responses';
import { formString as str, type ActionContext, type S2sDeps } from '../s2s-action';
import { brandErrors } from '../sale-refusals';

/** The field errors in the order of the form: the order, its description, the parameters, the payee. */
const RANK: ReadonlyArray<[RegExp, number]> = [
  [/^order_currency:/, 0],
  [/^order_amount:/, 1],
  [/^order_description:/, 2],
  [/^parameters\[/, 3],
  [/^payee_/, 4],
];
const rankOf = (message: string): number => RANK.find(([pattern]) => pattern.test(message))?.[1] ?? 5;

export async function credit2Virtual(deps: S2sDeps, { form, merchant, requestId }: ActionContext) {
  const brand = form.brand as string;
  if (!deps.payments.offeredMethods().includes(brand)) throw brandErrors.notFound();
  const connectors = merchantConnectors(merchant);
  if (!methodEnabled(merchant, brand) || deps.payments.connectorsOffering(connectors, brand).length === 0) throw brandErrors.notSupported();
  const description = deps.payments.describeMethod(connectors, brand)!;
  // A method payers pay with takes no money to anyone.
  if (!description.payout) throw errors.actionNotSupported();

  const currency = form.order_currency as string;
  const amountText = form.order_amount as string;
  const parameters = (form.parameters as Record<string, unknown> | undefined) ?? {};
  const payee = { firstName: str(form, 'payee_first_name'), lastName: str(form, 'payee_last_name'), email: str(form, 'payee_email') };
  const catalogue = methodParameterProblems(description, parameters);
  const refused = new Set(catalogue.map((problem) => /^parameters\[([^\]]+)\]/.exec(problem)?.[1] ?? ''));
  const check = payoutProblems({ scheme: description.payout, currency, amountText, description: str(form, 'order_description'), parameters, payee, refused });
  const problems = [...check.problems, ...catalogue].map((message, index) => ({ message, index }));
  problems.sort((a, b) => rankOf(a.message) - rankOf(b.message) || a.index - b.index);
  if (problems.length || check.amount === null) {
    throw errors.invalid(problems.map(({ message }): FieldError => ({ error_code: 100000, error_message: message })));
  }

  const orderId = form.order_id as string;
  requireHash(form.hash, credit2VirtualHash({ orderId, orderAmount: amountText, orderCurrency: currency, password: merchant.password }));

  const notificationUrl = str(form, 'notification_url');
  if (notificationUrl !== undefined) {
    const problem = await deps.notificationUrls.problem(notificationUrl);
    if (problem) throw errors.invalid([errors.field('notification_url', problem)]);
  }
  const method: MethodSnapshot = { brand, parameters };
  const payeeSnapshot: PayerSnapshot = {
    ...(payee.firstName ? { firstName: payee.firstName } : {}),
    ...(payee.lastName ? { lastName: payee.lastName } : {}),
    ...(payee.email ? { email: payee.email } : {}),
  };
  try {
    const { payment } = await deps.payouts.payout({
      merchantId: merchant.merchantId,
      orderId,
      orderDescription: str(form, 'order_description') ?? '',
      currency,
      amount: check.amount,
      amountText,
      method,
      payee: payeeSnapshot,
      notificationUrl: notificationUrl ?? null,
      correlationId: requestId,
      connectors,
    });
    return payoutResponse(payment);
  } catch (error) {
    if (error instanceof DuplicatePaymentError) throw errors.duplicate();
    // None of the merchant's connectors pays out in this currency: 204005.
    throwApiError(error);
  }
}

/** The payout's answer (also what a repeat within the duplicate window gets back). */
export function payoutResponse(p: ExistingPayment): Record<string, unknown> {
  const head = (result: string, status: string) => apmAnswerHead('CREDIT2VIRTUAL', result, status, p);
  switch (p.phase) {
    case 'settled':
      return head('SUCCESS', 'SETTLED');
    case 'declined':
      return { ...head('DECLINED', 'DECLINED'), decline_reason: p.declineReason ?? 'Declined' };
    default:
      // The provider has not decided yet: the outcome follows by callback and status lookup.
      return head('UNDEFINED', 'PREPARE');
  }
}
