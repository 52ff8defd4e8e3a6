/** The card fields a payer typed (on the hosted page or in the hosted payment fields), checked into a card to pay with. */
import { detectBrand, parseExpiry, validateCvv, validatePan } from '../../domain/card';
import type { ExistingSession } from '../../domain/checkout/session-state';
import type { SaleCard } from '../payments';
import type { CheckoutServiceDeps } from './deps';
import { holderNameOf } from './payer-snapshot';
import type { FieldProblem } from './problems';

export interface CardInput {
  /** Absent when the session credits a stored card (`card_token`). */
  number?: string;
  expMonth: string;
  /** Two or four digits. */
  expYear: string;
  /** Absent for a credit: a payout never asks for the CVV. */
  cvv?: string;
  holder?: string;
}

/** The card, or null with what is wrong with it added to `problems`. */
export async function cardOf(
  deps: Pick<CheckoutServiceDeps, 'clock' | 'vault'>,
  session: ExistingSession,
  input: CardInput,
  problems: FieldProblem[],
  { holderRequired = true }: { holderRequired?: boolean } = {},
): Promise<SaleCard | null> {
  const year = /^\d{2}$/.test(input.expYear ?? '') ? `20${input.expYear}` : input.expYear;
  const expiry = parseExpiry(String(input.expMonth ?? ''), String(year ?? ''), deps.clock.now());
  if (!expiry.ok) problems.push({ field: 'card_expiry', problem: 'invalid' });
  const holder = input.holder?.trim() || holderNameOf(session) || undefined;
  if (session.cardToken) {
    const stored = await deps.vault.retrieve(session.cardToken, session.merchantId);
    if (!stored) {
      problems.push({ field: 'card_number', problem: 'stored_card_unavailable' });
      return null;
    }
    if (expiry.ok && (stored.expMonth !== expiry.expMonth || stored.expYear !== expiry.expYear)) {
      problems.push({ field: 'card_expiry', problem: 'not_the_stored_cards' });
    }
    return expiry.ok && !problems.length ? { kind: 'token', token: session.cardToken, ...(holder ? { holder } : {}) } : null;
  }
  const number = (input.number ?? '').replace(/[\s-]/g, '');
  if (!validatePan(number).ok) problems.push({ field: 'card_number', problem: 'invalid' });
  const needsCvv = session.operation !== 'credit';
  const brand = detectBrand(number);
  if (needsCvv && !validateCvv(input.cvv ?? '', brand).ok) {
    problems.push({ field: 'card_cvv', problem: 'invalid', digits: brand === 'AMEX' ? 4 : brand === 'UNKNOWN' ? null : 3 });
  }
  if (!holder && holderRequired) problems.push({ field: 'card_holder', problem: 'missing' });
  if (problems.length || !expiry.ok) return null;
  return { kind: 'number', number, expMonth: expiry.expMonth, expYear: expiry.expYear, cvv: needsCvv ? input.cvv : undefined, holder };
}
