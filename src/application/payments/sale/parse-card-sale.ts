/**
 * The one parse of an S2S CARD `SALE`: a card or a stored card's token, or a wallet's token
 * (`digital_wallet` + `payment_token`), the payer, and optionally the start of a chain. Every field
 * problem is collected, in the order of the form; a refused form is answered before its hash.
 */
import { parseExpiry, validatePan } from '../../../domain/card';
import { isUuid } from '../../../domain/ids';
import { payerPresent, storesCard } from '../../../domain/payment/policy';
import type { ReturnLinkTarget } from '../../../domain/payment/events';
import { isWallet } from '../../../domain/wallets/token-shape';
import type { CardSaleCommand, CardSalePayment, Parsed } from './command';
import { fieldProblem, formString as str, type SaleForm } from './form-fields';
import type { MerchantTerms } from './merchant-terms';
import { kindOf, orderAmountOf, saleOrderOf } from './parse-order';
import { scheduleFieldsOf } from './parse-schedule-fields';
import { walletTokenProblem } from './wallet-token';

type SentCard = Extract<CardSalePayment, { kind: 'card' }>['card'];

export function parseCardSale(form: SaleForm, terms: MerchantTerms, now: Date, correlationId: string): Parsed<CardSaleCommand> {
  const problems: string[] = [];
  // Optional for everyone else; this merchant's Protocol Mapping marks them Required.
  for (const field of terms.requiredFields) if (!str(form, field)) problems.push(fieldProblem(field, 'This value should not be blank.'));
  const money = orderAmountOf(form, problems);
  const wallet = walletFieldsOf(form, problems);
  const card = wallet ? null : sentCardOf(form, now, problems);
  const recurringInit = form.recurring_init === 'Y';
  const today = now.toISOString().slice(0, 10);
  const schedule = scheduleFieldsOf(form, { currency: money.currency, amount: money.amount, recurringInit, today }, problems);
  const amount = money.amount;
  if (problems.length || (!card && !wallet) || !amount || !amount.ok) return { ok: false, refusal: { kind: 'fields', problems } };
  if (schedule && !isUuid(schedule.scheduleId)) return { ok: false, refusal: { kind: 'schedule_id_not_uuid' } };
  const kind = kindOf(form);
  const command: CardSaleCommand = {
    terms,
    order: saleOrderOf(form, kind, { ...money, amount }),
    pays: wallet ? { kind: 'wallet', ...wallet } : cardPayment(form, card!, kind, recurringInit),
    termUrl3ds: str(form, 'term_url_3ds') ?? null,
    // The schema admitted only the four link targets.
    termUrlTarget: (str(form, 'term_url_target') as ReturnLinkTarget | undefined) ?? null,
    parameters: (form.parameters as Record<string, unknown>) ?? null,
    recurringInit,
    schedule,
    correlationId,
  };
  return { ok: true, command };
}

function cardPayment(form: SaleForm, card: SentCard, kind: CardSaleCommand['order']['kind'], recurringInit: boolean): CardSalePayment {
  const cardSource = card.kind === 'number' ? 'card_number' : 'card_token';
  return {
    kind: 'card',
    card,
    storeCard: storesCard({ cardSource, kind, reqToken: form.req_token === 'Y', recurringInit }),
    payerPresent: payerPresent({ cardSource, payerPresentSent: str(form, 'payer_present') }),
  };
}

/** The card on the form, or the stored card's token; null (its problems added) when there is neither, or both. */
function sentCardOf(form: SaleForm, now: Date, problems: string[]): SentCard | null {
  const cardNumber = str(form, 'card_number');
  const cardToken = str(form, 'card_token');
  if (cardNumber && cardToken) {
    problems.push(fieldProblem('card_token', 'Send either card_number or card_token, not both.'));
    return null;
  }
  if (cardToken) return { kind: 'token', token: cardToken };
  if (!cardNumber) {
    problems.push(fieldProblem('card_number', 'This value should not be blank.'));
    return null;
  }
  const pan = validatePan(cardNumber);
  if (!pan.ok) problems.push(fieldProblem('card_number', 'This value is not a valid card number.'));
  for (const f of ['card_exp_month', 'card_exp_year', 'card_cvv2']) if (!str(form, f)) problems.push(fieldProblem(f, 'This value should not be blank.'));
  const month = str(form, 'card_exp_month');
  const year = str(form, 'card_exp_year');
  if (!month || !year) return null;
  const expiry = parseExpiry(month, year, now);
  if (!expiry.ok) problems.push(fieldProblem('card_exp_year', expiry.reason));
  if (!expiry.ok || !pan.ok) return null;
  return {
    kind: 'number',
    number: cardNumber,
    expMonth: expiry.expMonth,
    expYear: expiry.expYear,
    cvv: str(form, 'card_cvv2'),
    holder: [str(form, 'payer_first_name'), str(form, 'payer_last_name')].filter(Boolean).join(' ') || undefined,
  };
}

/**
 * A wallet SALE's fields, or null when none was sent: `digital_wallet` and `payment_token` both,
 * without card fields, and a token of its wallet's shape. An unknown wallet is not a field
 * problem: it is refused after the hash (204018).
 */
function walletFieldsOf(form: SaleForm, problems: string[]): { wallet: string; token: string } | null {
  const wallet = str(form, 'digital_wallet');
  const token = str(form, 'payment_token');
  if (wallet === undefined && token === undefined) return null;
  if (wallet === undefined) problems.push(fieldProblem('digital_wallet', 'This value should not be blank.'));
  if (token === undefined) problems.push(fieldProblem('payment_token', 'This value should not be blank.'));
  if (str(form, 'card_number') || str(form, 'card_token')) problems.push(fieldProblem('payment_token', 'Send either card data or payment_token, not both.'));
  if (wallet === undefined || token === undefined) return { wallet: wallet ?? '', token: token ?? '' };
  const problem = isWallet(wallet) ? walletTokenProblem(wallet, token, 'payment_token') : null;
  if (problem) problems.push(problem);
  return { wallet, token };
}
