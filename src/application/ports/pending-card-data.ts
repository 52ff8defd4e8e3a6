/**
 * Card data typed into hosted payment fields, held between the payer's submit (from the gateway's
 * iframes) and the merchant server's processing request. The two requests may reach different API
 * processes behind a load balancer, so every API process of a deployment must see the same holdings.
 *
 * What an adapter must guarantee: the data (the CVV included) is never written in clear and never
 * logged; each holding is taken at most once, even by two processes at the same instant; a holding
 * older than its time to live is never returned and is deleted, by `take`, by the next `hold` or by
 * `sweep`, whichever comes first.
 */
import type { CardData } from './connector';

export interface PendingCardData {
  /** Holds the card typed for the session, replacing what was held for it before. */
  hold(sessionId: string, card: CardData): Promise<void>;
  /** The card held for the session, deleted as it is returned; null when none is held or it expired. */
  take(sessionId: string): Promise<CardData | null>;
  /** Deletes every expired holding; answers how many. */
  sweep(): Promise<number>;
}
