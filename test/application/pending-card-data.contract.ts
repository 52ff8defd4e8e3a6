/**
 * What every PendingCardData adapter must do. Each adapter's spec calls `pendingCardDataContract`
 * with a factory that opens fresh storage; `open` gives a further instance on the SAME storage, as a
 * second API process would have, and `rawRows` reads the table as a database administrator would.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { CardData } from '../../src/application/ports/connector';
import type { PendingCardData } from '../../src/application/ports/pending-card-data';
import { PENDING_CARD_TTL_MS } from '../../src/application/checkout/pending-card-data';

export interface StorageUnderTest {
  /** Another instance over the same storage; `vaultKey` defaults to the storage's own. */
  open(options: { now: () => number; vaultKey?: Buffer }): Promise<PendingCardData>;
  /** Every row of the table, columns as the driver returns them. */
  rawRows(): Promise<Array<Record<string, unknown>>>;
  /** Gives a row another session id, as someone with write access to the database might. */
  moveRow(fromSessionId: string, toSessionId: string): Promise<void>;
  cleanup(): Promise<void>;
}

export interface StorageFactoryOptions {
  vaultKey: Buffer;
}

const PAN = '4111111111111111';
const CVV = '739';
const card = (overrides: Partial<CardData> = {}): CardData => ({ number: PAN, expMonth: '01', expYear: '2038', cvv: CVV, ...overrides });

/** A clock the test moves by hand. */
class ManualClock {
  ms = Date.UTC(2030, 0, 1);
  readonly now = () => this.ms;
}

export function pendingCardDataContract(name: string, make: (options: StorageFactoryOptions) => Promise<StorageUnderTest>): void {
  describe(`Pending card data contract: ${name}`, () => {
    let storage: StorageUnderTest;
    let clock: ManualClock;
    let cards: PendingCardData;
    let vaultKey: Buffer;

    beforeEach(async () => {
      vaultKey = randomBytes(32);
      storage = await make({ vaultKey });
      clock = new ManualClock();
      cards = await storage.open({ now: clock.now });
    });
    afterEach(async () => {
      await storage.cleanup();
    });

    it('Given a card held for a session, when it is taken, then the same card comes back, and a second take finds none', async () => {
      const session = randomUUID();
      await cards.hold(session, card({ holder: 'JOHN DOE' }));
      expect(await cards.take(session)).to.deep.equal(card({ holder: 'JOHN DOE' }));
      expect(await cards.take(session)).to.equal(null);
    });

    it('keeps the cards of different sessions apart', async () => {
      const [one, two] = [randomUUID(), randomUUID()];
      await cards.hold(one, card({ expMonth: '01' }));
      await cards.hold(two, card({ expMonth: '02' }));
      expect((await cards.take(two))?.expMonth).to.equal('02');
      expect((await cards.take(one))?.expMonth).to.equal('01');
      expect(await cards.take(randomUUID())).to.equal(null);
    });

    it('Given the payer corrected the card, when it is taken, then the corrected card comes back', async () => {
      const session = randomUUID();
      await cards.hold(session, card({ expMonth: '02' }));
      await cards.hold(session, card({ expMonth: '01' }));
      expect((await cards.take(session))?.expMonth).to.equal('01');
      expect(await cards.take(session)).to.equal(null);
    });

    it('Given a card held by one process, when another process on the same storage takes it, then it gets the card and the first finds none', async () => {
      const session = randomUUID();
      const other = await storage.open({ now: clock.now });
      await cards.hold(session, card());
      expect(await other.take(session)).to.deep.equal(card());
      expect(await cards.take(session)).to.equal(null);
    });

    it('gives the card to only one of many simultaneous takes, from two processes', async () => {
      const session = randomUUID();
      const other = await storage.open({ now: clock.now });
      await cards.hold(session, card());
      const taken = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? other : cards).take(session)));
      expect(taken.filter((c) => c !== null)).to.deep.equal([card()]);
    });

    it('keeps a card for 15 minutes after it was held, and no longer', async () => {
      const [fresh, stale] = [randomUUID(), randomUUID()];
      await cards.hold(fresh, card());
      await cards.hold(stale, card());
      clock.ms += PENDING_CARD_TTL_MS;
      expect(await cards.take(fresh)).to.deep.equal(card());
      clock.ms += 1;
      expect(await cards.take(stale)).to.equal(null);
      expect(await storage.rawRows()).to.deep.equal([]);
    });

    it('deletes expired cards in a sweep, leaving the live ones', async () => {
      const [old, recent] = [randomUUID(), randomUUID()];
      await cards.hold(old, card());
      clock.ms += 10 * 60_000;
      await cards.hold(recent, card());
      clock.ms += 6 * 60_000;
      expect(await cards.sweep()).to.equal(1);
      expect((await storage.rawRows()).map((r) => r.session_id)).to.deep.equal([recent]);
      expect(await cards.take(recent)).to.deep.equal(card());
    });

    it('deletes expired cards of other sessions when a new card is held, before any sweep', async () => {
      const [abandoned, next] = [randomUUID(), randomUUID()];
      await cards.hold(abandoned, card());
      clock.ms += PENDING_CARD_TTL_MS + 1;
      await cards.hold(next, card());
      expect((await storage.rawRows()).map((r) => r.session_id)).to.deep.equal([next]);
    });

    it('never holds the card number, the CVV or the expiry in clear', async () => {
      const session = randomUUID();
      await cards.hold(session, card({ holder: 'JOHN DOE' }));
      const rows = await storage.rawRows();
      expect(rows).to.have.length(1);
      for (const [column, value] of Object.entries(rows[0])) {
        if (column === 'session_id') continue;
        // Binary columns byte for byte: a 3-digit CVV would turn up in a hex dump of random bytes by chance.
        const text = Buffer.isBuffer(value) ? value.toString('latin1') : String(value);
        for (const secret of [PAN, CVV, 'JOHN DOE', '2038', '"cvv"', '"number"']) expect(text, column).not.to.include(secret);
      }
    });

    it('refuses a row moved to another session, instead of paying that session with it', async () => {
      const [payer, attacker] = [randomUUID(), randomUUID()];
      await cards.hold(payer, card());
      await storage.moveRow(payer, attacker);
      let failure: unknown;
      try {
        await cards.take(attacker);
      } catch (error) {
        failure = error;
      }
      expect(failure, 'take of a moved row').to.be.instanceOf(Error);
      expect(String(failure)).not.to.include(PAN);
      expect(await storage.rawRows()).to.deep.equal([]);
    });

    it('cannot be opened by a process with another vault key', async () => {
      const session = randomUUID();
      const stranger = await storage.open({ now: clock.now, vaultKey: randomBytes(32) });
      await cards.hold(session, card());
      let failure: unknown;
      try {
        await stranger.take(session);
      } catch (error) {
        failure = error;
      }
      expect(failure).to.be.instanceOf(Error);
      expect(String(failure)).not.to.include(PAN);
    });
  });
}
