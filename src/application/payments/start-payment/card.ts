/** The card a payment is made with: as sent, decrypted from a wallet token, or out of the vault for a stored card's token. */
import type { CardVault } from '../../ports/card-vault';
import type { CardData } from '../../ports/connector';
import { CardTokenNotFoundError } from '../errors';
import type { SaleCard } from '../types';

/** A token stored by another merchant is answered as one that does not exist. */
export async function resolveCard(vault: CardVault, card: SaleCard, merchantId: string): Promise<CardData> {
  if (card.kind === 'number') {
    return { number: card.number, expMonth: card.expMonth, expYear: card.expYear, holder: card.holder };
  }
  if (card.kind === 'wallet') {
    return { number: card.card.pan, expMonth: card.card.expMonth, expYear: card.card.expYear, holder: card.card.holder };
  }
  const stored = await vault.retrieve(card.token, merchantId);
  if (!stored) throw new CardTokenNotFoundError();
  return { number: stored.number, expMonth: stored.expMonth, expYear: stored.expYear, holder: card.holder ?? stored.holder };
}
