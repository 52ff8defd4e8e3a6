import { merchantConnectors } from '../../../domain/merchant/connectors';
import { isWalletMethod, methodEnabled } from '../../../domain/merchant/methods';
import { offeredMethods } from '../../../domain/checkout/session-decide';
import type { ExistingSession } from '../../../domain/checkout/session-state';
import { fieldsToCollect, methodParameterIssues } from '../../../domain/payment/method-fields';
import type { PayOutcome } from '../attempt/command';
import { attempt } from '../attempt/handler';
import type { CheckoutDeps } from '../deps';
import { merchantOf } from '../merchant-of';
import { methodParametersOf } from '../page-methods';
import { payerOf } from '../payer-snapshot';
import { collectedValues } from './collected-values';
import type { PayInput } from './command';

/**
 * The payer chose an alternative method: what the page collected for it (the fields its provider
 * collects from the payer when the merchant did not send them) is checked with the method's own
 * rules, each now required, then added to the session's `parameters.<method_id>` for the payment.
 */
export async function payWithMethod(
  deps: CheckoutDeps,
  { session, version }: { session: ExistingSession; version: bigint | null },
  method: string,
  input: PayInput,
  correlationId: string,
): Promise<PayOutcome> {
  const merchant = await merchantOf(deps, session.merchantId);
  // A wallet pays with its token, from its own button (payWithWallet), never from a method form.
  const description = !isWalletMethod(method) && offeredMethods(session).includes(method) && methodEnabled(merchant, method)
    ? deps.payments.describeMethod(merchantConnectors(merchant), method)
    : null;
  if (!description) return { kind: 'invalid_method', method, problems: [{ field: null, problem: 'unavailable' }] };
  const payer = payerOf(session, { ip: input.payerIp, email: input.email });
  const sent = methodParametersOf(session, method);
  const collect = fieldsToCollect(description, sent, { phone: payer.phone, country: payer.country });
  const { values, problems } = collectedValues(description, collect, input.methodFields ?? {});
  if (problems.length) return { kind: 'invalid_method', method, problems };
  const parameters = { ...sent, ...values };
  // What the merchant sent passed this check when the session was created; the whole set is checked once more as the provider gets it.
  if (methodParameterIssues(description, parameters, { phone: payer.phone, country: payer.country }).length) {
    return { kind: 'invalid_method', method, problems: [{ field: null, problem: 'unavailable' }] };
  }
  return attempt(deps, { session, version, paying: { method: { brand: method, parameters } }, payer, correlationId, browser: input.browser });
}
