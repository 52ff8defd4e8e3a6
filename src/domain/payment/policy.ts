/**
 * The gateway's rules for what a merchant may ask of a payment, as pure functions: the deciders
 * apply the ones about amounts and the MID's payment mode, and the use cases ask the others, so
 * each rule is written once whichever API the request came through.
 */
import type { PaymentMode } from '../merchant/events';
import type { CardSource, PaymentKind } from './events';

/** Zero is an amount only for a card check: an authorization, or the payment that starts a chain (spec Errors rule 5). */
export const zeroAmountAllowed = (p: { kind: PaymentKind; recurringInit: boolean }): boolean => p.kind === 'authorization' || p.recurringInit;

/**
 * MID Payment Mode (spec, States rule 4): a sale needs SMS or SMS/DMS, an authorization DMS or
 * SMS/DMS. Debits and credits are not sales and take any mode.
 */
export function paymentModeAllows(mode: PaymentMode, kind: PaymentKind): boolean {
  if (kind === 'authorization') return mode !== 'SMS';
  if (kind === 'sale') return mode !== 'DMS';
  return true;
}

/**
 * Whether a payment keeps the card it was given for later: when the merchant asks for a token, when
 * it starts a chain, and for every debit (whose callbacks always carry `card_token`). A stored card
 * is never stored again.
 */
export const storesCard = (p: { cardSource: CardSource; kind: PaymentKind; reqToken: boolean; recurringInit: boolean }): boolean =>
  p.cardSource === 'card_number' && (p.reqToken || p.recurringInit || p.kind === 'debit');

/** Only a stored card can be charged without the payer; a card number means the payer gave it. */
export const payerPresent = (p: { cardSource: CardSource; payerPresentSent: string | undefined }): boolean =>
  !(p.cardSource === 'card_token' && p.payerPresentSent === 'N');

/** A chain charges in the currency its first payment was made in: a currency sent with a later charge must be it. */
export const chainCurrencyAccepts = (chainCurrency: string, sent: string | undefined): boolean => sent === undefined || sent === chainCurrency;
