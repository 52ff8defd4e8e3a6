import { createHash } from 'node:crypto';

/**
 * The delivery id is derived from the payment event it reports, so every notifier (and every
 * replay after a restart) arrives at the same delivery stream, and only one of them can create it.
 * It is what a merchant deduplicates on (header X-Delivery-Id).
 */
export function deliveryIdFor(sourceEventId: string): string {
  const h = createHash('sha256').update(`callback-delivery:${sourceEventId}`).digest('hex');
  // Shaped as a version-5-style UUID so it reads like every other id of the gateway.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
