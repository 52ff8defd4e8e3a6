/**
 * Stores written before stored cards had owners hold records that no merchant may use until the
 * vault knows whose they are. The event log knows: the first payment that names a token is the
 * one that stored it (a token cannot be used before it exists), and its merchant is the owner.
 * This runs once when a gateway opens such a store; when no record lacks an owner it costs one
 * query. A record no event names stays unowned, so it is usable by nobody.
 */
import type { UnownedCardTokens } from '../ports/card-vault';
import type { EventStore, StoredEvent } from '../ports/event-store';
import type { Logger } from '../ports/logger';

const PAGE = 2_000;

function tokenAndOwner(event: StoredEvent): [string, string] | null {
  const data = event.data as { merchantId?: unknown; card?: { token?: unknown }; cardToken?: unknown };
  if (typeof data.merchantId !== 'string') return null;
  if (event.type === 'PaymentInitiated' && typeof data.card?.token === 'string') return [data.card.token, data.merchantId];
  if (event.type === 'CheckoutSessionCreated' && typeof data.cardToken === 'string') return [data.cardToken, data.merchantId];
  return null;
}

export async function claimUnownedCardTokens(vault: UnownedCardTokens, store: EventStore, logger: Logger): Promise<{ claimed: number; orphaned: number }> {
  const unowned = new Set(await vault.unownedTokens());
  if (unowned.size === 0) return { claimed: 0, orphaned: 0 };
  let claimed = 0;
  let after: bigint | null = null;
  while (unowned.size > 0) {
    const page = await store.readAll({ after, maxCount: PAGE });
    for (const event of page) {
      const found = tokenAndOwner(event);
      if (!found || !unowned.has(found[0])) continue;
      await vault.claim(found[0], found[1]);
      unowned.delete(found[0]);
      claimed++;
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1].position;
  }
  if (claimed > 0 || unowned.size > 0) {
    logger.info('stored cards given their merchants', { claimed, orphaned: unowned.size });
  }
  return { claimed, orphaned: unowned.size };
}
