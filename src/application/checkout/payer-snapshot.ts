/** Who pays (or is paid), from what the merchant sent with the session and what the payer gave. */
import type { ExistingSession } from '../../domain/checkout/session-state';
import type { PayerSnapshot } from '../../domain/payment/events';

export function payerOf(
  session: ExistingSession,
  seen: { ip: string; email?: string; birthDate?: string; country?: string; state?: string },
): PayerSnapshot {
  const b = session.billingAddress;
  const c = session.customer;
  const payer: PayerSnapshot = {
    email: c.email ?? seen.email,
    birthDate: c.birthDate ?? seen.birthDate,
    country: seen.country ?? b.country,
    state: seen.state,
    city: b.city,
    address: b.address,
    zip: b.zip,
    phone: b.phone,
    houseNumber: b.houseNumber,
    district: b.district,
    // customer.ip wins; else the address the gateway saw (spec, customer.ip).
    ip: c.ip ?? seen.ip,
  };
  for (const key of Object.keys(payer) as (keyof PayerSnapshot)[]) if (payer[key] === undefined || payer[key] === '') delete payer[key];
  return payer;
}

/** For a credit, the payee; else the customer. Empty when the merchant sent neither. */
export function holderNameOf(session: ExistingSession): string {
  const p = session.payee;
  const payee = p ? (p.name ?? [p.firstName, p.lastName].filter(Boolean).join(' ')) : '';
  return payee || (session.operation === 'credit' && session.cardToken ? '' : session.customer.name || '');
}
