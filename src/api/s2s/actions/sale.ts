/**
 * `SALE` (S2S CARD): a card or a stored card's token, the payer, and optionally the start of a chain.
 * A wallet SALE sends `digital_wallet` and `payment_token` (the token JSON exactly as received) in
 * place of the card, signed with Formula 8; it is paid in the wallets' card flow or refused
 * (docs/wallets.md#two-flows, wallet-refusals.ts). The form is parsed once (parseCardSale); what
 * follows the hash is the use case's.
 */
import { merchantTermsOf, parseCardSale, type CardSalePayment } from '../../../application/payments';
import { saleCardHash, saleTokenHash, walletSaleHash } from '../../../domain/signatures';
import { requireHash } from '../../require-hash';
import { saleResponse, viewOf } from '../responses';
import { saleRefusalError, throwSaleError } from '../sale-refusals';
import type { ActionContext, S2sDeps } from '../s2s-action';

export async function sale(deps: S2sDeps, { form, merchant, requestId }: ActionContext) {
  const parsed = parseCardSale(form, merchantTermsOf(merchant), deps.clock.now(), requestId);
  if (!parsed.ok) throw saleRefusalError(parsed.refusal);
  const command = parsed.command;
  requireHash(form.hash, expectedSaleHash({ payerEmail: command.order.payer.email, password: merchant.password }, command.pays));
  try {
    return saleResponse(viewOf((await deps.payments.cardSale(command, deps)).payment));
  } catch (error) {
    throwSaleError(error, 'payment_token');
  }
}

/** Formula 8 for a wallet SALE (no card sent: it is in the token), else Formula 1 over the card number or token. */
function expectedSaleHash(signer: { payerEmail?: string; password: string }, pays: CardSalePayment): string {
  if (pays.kind === 'wallet') return walletSaleHash(signer);
  return pays.card.kind === 'number' ? saleCardHash({ ...signer, cardNumber: pays.card.number }) : saleTokenHash({ ...signer, cardToken: pays.card.token });
}
