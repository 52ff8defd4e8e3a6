/**
 * Card data typed into hosted payment fields, held between the payer's submit (from the gateway's
 * iframes) and the merchant server's processing request. Memory only, never written anywhere:
 * the CVV must not be stored. Each entry is taken once and forgotten after `ttlMs`.
 *
 * Because it lives in one process's memory, a deployment with several API processes must route a
 * session's iframe and processing requests to the same process (docs/checkout.md).
 */
import type { CardData } from '../ports/connector';

export interface HeldCard extends CardData {
  heldAt: number;
}

export class PendingCardData {
  private readonly entries = new Map<string, HeldCard>();

  constructor(private readonly options: { ttlMs: number; now?: () => number; maxEntries?: number } = { ttlMs: 15 * 60_000 }) {}

  private now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }

  hold(sessionId: string, card: CardData): void {
    this.sweep();
    const max = this.options.maxEntries ?? 100_000;
    if (this.entries.size >= max && !this.entries.has(sessionId)) {
      // Oldest first: Map keeps insertion order.
      this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.delete(sessionId);
    this.entries.set(sessionId, { ...card, heldAt: this.now() });
  }

  /** The card held for the session, removed as it is returned; null when none or expired. */
  take(sessionId: string): CardData | null {
    const held = this.entries.get(sessionId);
    this.entries.delete(sessionId);
    if (!held || this.now() - held.heldAt > this.options.ttlMs) return null;
    const { heldAt: _heldAt, ...card } = held;
    return card;
  }

  has(sessionId: string): boolean {
    const held = this.entries.get(sessionId);
    return !!held && this.now() - held.heldAt <= this.options.ttlMs;
  }

  private sweep(): void {
    const cutoff = this.now() - this.options.ttlMs;
    for (const [id, held] of this.entries) {
      if (held.heldAt >= cutoff) break;
      this.entries.delete(id);
    }
  }
}
