/**
 * Reads the hosted payment form as the browser posted it. Everything is untrusted text: only single
 * string values are taken, and the expiry's one field is split into month and year here so the
 * service checks them like any other card data.
 */
import type { FieldProblem, PayInput } from '../../application/checkout/checkout-service';
import type { BrowserAttributes } from '../../domain/payment/events';
import { isCountryCode } from './countries';
import type { KeptValues } from './form-field';

/** Longest value kept from any field; nothing on this form is longer. */
const MAX_FIELD_LENGTH = 256;

export type FormReader = (name: string) => string | undefined;

export function formReader(body: unknown): FormReader {
  const fields = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  return (name) => {
    const value = Object.prototype.hasOwnProperty.call(fields, name) ? fields[name] : undefined;
    return typeof value === 'string' ? value.slice(0, MAX_FIELD_LENGTH) : undefined;
  };
}

/** `MM / YY`, `MM/YY`, `MM/YYYY`, `MMYY`; anything else stays unsplit for the service to refuse. */
export function splitExpiry(text: string | undefined): { expMonth: string; expYear: string } {
  const value = (text ?? '').trim();
  const m = /^(\d{1,2})\s*[/-]\s*(\d{2}|\d{4})$/.exec(value) ?? /^(\d{2})(\d{2})$/.exec(value);
  return m ? { expMonth: m[1].padStart(2, '0'), expYear: m[2] } : { expMonth: '', expYear: '' };
}

/** A payer who typed the card number into the wrong field must not see it printed back. */
const mayHoldCardNumber = (text: string): boolean => (text.match(/\d/g)?.length ?? 0) >= 7;

export interface ReadPayForm {
  input: PayInput;
  /** What may be shown again if the form is refused (never the card number or CVV). */
  kept: KeptValues;
  /** Problems the page itself finds (the billing country it offered). */
  problems: FieldProblem[];
}

/**
 * `sessionCountry`: the session's billing country; when it has none the page asked for one, and a
 * missing or unknown code is refused here, since the service would take it as given.
 * `asksBillingAddress` false: the page asked for no address (a stored card's credit), none is read.
 */
export function readPayForm(
  field: FormReader,
  context: { payerIp: string; browser?: BrowserAttributes; sessionCountry?: string; asksBillingAddress?: boolean },
): ReadPayForm {
  const problems: FieldProblem[] = [];
  const holder = field('card_holder')?.trim();
  const expiryText = field('card_expiry')?.trim();
  const asksAddress = context.asksBillingAddress !== false;
  let country: string | undefined;
  if (asksAddress && !context.sessionCountry) {
    country = field('billing_country')?.trim().toUpperCase() || undefined;
    if (!country || !isCountryCode(country)) {
      problems.push({ field: 'billing_country', problem: 'missing' });
      country = undefined;
    }
  }
  const state = (asksAddress && field('billing_state')?.trim()) || undefined;
  const number = field('card_number');
  const cvv = field('card_cvv')?.trim();
  const input: PayInput = {
    card: {
      ...(number !== undefined ? { number } : {}),
      ...splitExpiry(expiryText),
      ...(cvv !== undefined ? { cvv } : {}),
      ...(holder ? { holder } : {}),
    },
    billing: { ...(country ? { country } : {}), ...(state ? { state } : {}) },
    payerIp: context.payerIp,
    ...(context.browser ? { browser: context.browser } : {}),
  };
  const kept = keptValues({ card_expiry: expiryText, card_holder: holder, billing_country: field('billing_country'), billing_state: state });
  return { input, kept, problems };
}

/** The longest name or state a page shows again (the fields' own maxlength). */
const MAX_KEPT_LENGTH = 100;

/**
 * What of the payer's typing may be shown again: the expiry, the name and the billing address,
 * each only if it is text of a plausible length that cannot hold a card number. Whatever the
 * values' source (this request's form, or the payer's cookie from an earlier attempt).
 */
export function keptValues(typed: Partial<Record<keyof KeptValues, unknown>>): KeptValues {
  const text = (value: unknown, max: number): string | undefined => {
    if (typeof value !== 'string') return undefined;
    const trimmed = value.trim();
    return trimmed && trimmed.length <= max && !mayHoldCardNumber(trimmed) ? trimmed : undefined;
  };
  const expiry = text(typed.card_expiry, 9);
  // A name the payer cleared stays cleared, rather than the shop's prefilled one coming back.
  const holder = typeof typed.card_holder === 'string' && !typed.card_holder.trim() ? '' : text(typed.card_holder, MAX_KEPT_LENGTH);
  const country = typeof typed.billing_country === 'string' ? typed.billing_country.trim().toUpperCase().slice(0, 2) : '';
  const state = text(typed.billing_state, MAX_KEPT_LENGTH);
  return {
    ...(expiry ? { card_expiry: expiry } : {}),
    ...(holder !== undefined ? { card_holder: holder } : {}),
    ...(/^[A-Z]{2}$/.test(country) ? { billing_country: country } : {}),
    ...(state ? { billing_state: state } : {}),
  };
}
