/**
 * A store of the release before stored cards had owners: given its vault records (bound to their
 * token only) and the payments that stored and used them, when a gateway opens it, then each record
 * belongs to the merchant of the first payment that names it, and nobody else can use it.
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { randomBytes, randomUUID } from 'node:crypto';
import { EncryptedCardVault } from '../../src/adapters/vault/card-vault';
import { seal } from '../../src/adapters/vault/secret-box';
import { claimUnownedCardTokens } from '../../src/application/vault/claim-unowned-card-tokens';
import { createJsonLogger } from '../../src/adapters/logging/json-logger';
import { paymentStreamId } from '../../src/domain/payment/events';
import { MemoryEventStore } from '../support/memory-event-store';
import { paymentInitiated } from '../support/payment-fixtures';

const CARD = { n: '4111111111111111', m: '01', y: '2038' };

function legacyVault(key: Buffer, tokens: string[]): Database.Database {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE card_vault (token TEXT PRIMARY KEY, ciphertext BLOB NOT NULL, iv BLOB NOT NULL, tag BLOB NOT NULL, created_at TEXT NOT NULL)');
  for (const token of tokens) {
    const sealed = seal(key, Buffer.from(JSON.stringify(CARD)), Buffer.from(token));
    db.prepare('INSERT INTO card_vault VALUES (?, ?, ?, ?, ?)').run(token, sealed.ciphertext, sealed.iv, sealed.tag, new Date().toISOString());
  }
  return db;
}

const tokenOf = () => `ct_${randomBytes(16).toString('hex')}`;

describe('Stored cards of an older store are given their merchants', () => {
  it('Given a token stored by A and later used by B (the old hole), when the store is opened, then it is A\'s alone; a token no payment names stays unusable', async () => {
    const key = randomBytes(32);
    const [usedByB, orphan] = [tokenOf(), tokenOf()];
    const store = new MemoryEventStore();
    const stored = paymentInitiated({ merchantId: 'merchant-a', card: { mask: '411111******1111', brand: 'VISA', expMonth: '01', expYear: '2038', token: usedByB } });
    const borrowed = paymentInitiated({ merchantId: 'merchant-b', cardSource: 'card_token', card: { ...stored.data.card! } });
    for (const event of [stored, borrowed]) {
      await store.append(paymentStreamId(event.data.paymentId), [{ id: randomUUID(), type: event.type, schemaVersion: 1, data: event.data, metadata: { correlationId: 'c', causationId: 'c' } }], { kind: 'no_stream' });
    }
    const db = legacyVault(key, [usedByB, orphan]);
    const vault = new EncryptedCardVault({ db, key });

    const result = await claimUnownedCardTokens(vault, store, createJsonLogger('silent'));

    expect(result).to.deep.equal({ claimed: 1, orphaned: 1 });
    expect(await vault.retrieve(usedByB, 'merchant-a')).to.include({ number: CARD.n });
    expect(await vault.retrieve(usedByB, 'merchant-b')).to.equal(null);
    expect(await vault.retrieve(orphan, 'merchant-a')).to.equal(null);
    expect(await vault.unownedTokens()).to.deep.equal([orphan]);
    // Opening again finds nothing new to do.
    expect(await claimUnownedCardTokens(vault, store, createJsonLogger('silent'))).to.deep.equal({ claimed: 0, orphaned: 1 });
  });
});
