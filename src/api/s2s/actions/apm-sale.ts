/**
 * S2S APM `SALE` (docs/reference/s2s-apm.md#sale): a SALE with a non-empty `brand` pays with that
 * alternative method. The router checks the fields' shapes (apmSaleSchema); the form is parsed once
 * (parseMethodSale: the brand, `204011`/`204006`/`204005`, then the amount and the method's
 * parameters); then the APM hash; what follows it (holds for wallet brands only, no zero sale, the
 * notification URL, the payment) is the use case's. The answer is in APM's shape (apm-responses.ts).
 *
 * A wallet brand (`applepay`, `googlepay`) pays with `parameters[paymentToken]`, the token exactly as
 * the wallet gave it (docs/wallets.md#two-flows); the token itself is never recorded as a parameter
 * of the payment.
 */
import { merchantTermsOf } from '../../../application/payments';
import { WALLET_TOKEN_PARAMETER } from '../../../domain/payment/wallet-method';
import { apmSaleHash } from '../../../domain/signatures';
import { requireHash } from '../../require-hash';
import { apmSaleResponse } from '../apm-responses';
import { viewOf } from '../responses';
import { saleRefusalError, throwSaleError } from '../sale-refusals';
import type { ActionContext, S2sDeps } from '../s2s-action';

export async function apmSale(deps: S2sDeps, { form, merchant, requestId }: ActionContext) {
  const parsed = deps.payments.parseMethodSale(form, merchantTermsOf(merchant), requestId);
  if (!parsed.ok) throw saleRefusalError(parsed.refusal);
  const { order } = parsed.command;
  const identifier = form.identifier as string;
  requireHash(form.hash, apmSaleHash({ identifier, orderId: order.orderId, orderAmount: order.amountText, orderCurrency: order.currency, password: merchant.password }));
  try {
    return apmSaleResponse(viewOf((await deps.payments.methodSale(parsed.command, deps)).payment));
  } catch (error) {
    throwSaleError(error, `parameters[${WALLET_TOKEN_PARAMETER}]`);
  }
}
