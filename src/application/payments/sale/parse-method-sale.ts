/**
 * The one parse of an S2S APM `SALE` (docs/reference/s2s-apm.md#sale): a SALE with a non-empty
 * `brand` pays with that alternative method. Checks, in order: the brand exists in this deployment
 * (`brand_not_found`), is enabled for the merchant and offered by one of its connectors
 * (`brand_not_supported`), takes payers' money (`action_not_supported` for a payout method); then
 * the amount and the method's `parameters[...]` against its catalogue entry (field problems).
 *
 * A wallet brand (`applepay`, `googlepay`) pays with `parameters[paymentToken]`, the token exactly as
 * the wallet gave it; which flow pays it (or none: 204018) is the wallet payment's to say, so a
 * wallet needs no connector offering it by name.
 */
import { WALLET_TOKEN_PARAMETER, walletMethodDescription } from '../../../domain/payment/wallet-method';
import type { MethodSnapshot } from '../../../domain/payment/events';
import { methodParameterProblems } from '../../../domain/payment/method-fields';
import { isWallet, type Wallet } from '../../../domain/wallets/token-shape';
import type { ConnectorRegistry } from '../../ports/connector-registry';
import { connectorsOffering, describeMethod, offeredMethods } from '../methods';
import type { MethodSaleCommand, Parsed } from './command';
import { formString as str, payerOf, type SaleForm } from './form-fields';
import type { MerchantTerms } from './merchant-terms';
import { kindOf, orderAmountOf, saleOrderOf } from './parse-order';
import { walletTokenProblem } from './wallet-token';

export function parseMethodSale(connectors: ConnectorRegistry, form: SaleForm, terms: MerchantTerms, correlationId: string): Parsed<MethodSaleCommand> {
  const brand = form.brand as string;
  if (!offeredMethods(connectors).includes(brand)) return { ok: false, refusal: { kind: 'brand_not_found' } };
  const wallet: Wallet | null = isWallet(brand) ? brand : null;
  const offering = connectorsOffering(connectors, terms.connectors, brand);
  if (!terms.methodEnabled(brand) || (!wallet && offering.length === 0)) return { ok: false, refusal: { kind: 'brand_not_supported' } };
  const description = wallet ? walletMethodDescription(wallet) : describeMethod(connectors, terms.connectors, brand)!;
  // A method that only pays money out takes no payer's money (CREDIT2VIRTUAL refuses the converse alike).
  if (!wallet && description.payout) return { ok: false, refusal: { kind: 'action_not_supported' } };

  const problems: string[] = [];
  const money = orderAmountOf(form, problems);
  const parameters = (form.parameters as Record<string, unknown> | undefined) ?? null;
  const payer = payerOf(form);
  problems.push(...methodParameterProblems(description, parameters, { phone: payer.phone, country: payer.country }));
  const walletToken = wallet ? parameters?.[WALLET_TOKEN_PARAMETER] : undefined;
  if (wallet && typeof walletToken === 'string' && walletToken !== '') {
    const problem = walletTokenProblem(wallet, walletToken, `parameters[${WALLET_TOKEN_PARAMETER}]`);
    if (problem) problems.push(problem);
  }
  const amount = money.amount;
  if (problems.length || !amount || !amount.ok) return { ok: false, refusal: { kind: 'fields', problems } };
  const method: MethodSnapshot = { brand, parameters: parameters ?? {}, ...methodFieldsOf(form) };
  const command: MethodSaleCommand = {
    terms,
    order: saleOrderOf(form, kindOf(form), { ...money, amount }),
    method,
    wallet: wallet ? { wallet, token: walletToken as string } : null,
    correlationId,
  };
  return { ok: true, command };
}

/** What the payment records of the method beside its brand and parameters. */
function methodFieldsOf(form: SaleForm): Omit<MethodSnapshot, 'brand' | 'parameters'> {
  return {
    identifier: form.identifier as string,
    returnUrl: form.return_url as string,
    ...(str(form, 'return_url_target') ? { returnUrlTarget: str(form, 'return_url_target') } : {}),
    ...(str(form, 'channel_id') ? { channelId: str(form, 'channel_id') } : {}),
  };
}
