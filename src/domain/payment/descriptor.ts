/**
 * The statement descriptor a merchant asked for with a Checkout payment: `parameters.card.descriptor`
 * (the spec's card catalogue, at most 20 characters, validated when the session was created). It is
 * sent to the connector with the rest of the parameters and it is the payment's descriptor in
 * answers, status lookups and callbacks, in place of the connector's default (docs/api-notes.md).
 */
import type { ExistingPayment } from './state';

export function requestedDescriptor(p: Pick<ExistingPayment, 'channel' | 'parameters'>): string | undefined {
  if (p.channel !== 'checkout') return undefined;
  const card = p.parameters?.card;
  const descriptor = card && typeof card === 'object' && !Array.isArray(card) ? (card as Record<string, unknown>).descriptor : undefined;
  return typeof descriptor === 'string' && descriptor.length > 0 ? descriptor : undefined;
}
