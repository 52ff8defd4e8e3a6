/**
 * What every connector owes the gateway, the same tests for each (as the event-store contract suite
 * is for stores). A connector's fixture says which cards produce which of its outcomes and how a
 * payer's browser answers its pages; the suite holds it to the port's promises.
 */
import { expect } from 'chai';
import type { CardData, Connector, ConnectorOutcome, PayerRedirect, PaymentRequest } from '../../src/application/ports/connector';
import type { RawPayerReturn } from '../../src/application/payments';

export interface ConnectorFixture {
  create(): Connector;
  cards: {
    success: CardData;
    declined: CardData;
    /** A decline another connector may take (cascading), where the connector has one. */
    softDecline?: CardData;
    /** A card sent to the connector's page (3-D Secure or a provider redirect), where it has one. */
    payerStep?: CardData;
  };
  /** What the payer's browser posts back after the connector's page. */
  payerReturn?(redirect: PayerRedirect, approved: boolean): RawPayerReturn;
}

const PAYMENT_ID = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const RETURN_URL = `https://gateway.test/payments/${PAYMENT_ID}/3ds-return`;

function request(card: CardData, overrides: Partial<Omit<PaymentRequest, 'instrument'>> = {}): PaymentRequest {
  return { paymentId: PAYMENT_ID, merchantId: 'm-1', kind: 'sale', amount: 1250, currency: 'EUR', instrument: { kind: 'card', card }, returnUrl: RETURN_URL, ...overrides };
}

const referenceOf = (o: ConnectorOutcome): string | undefined => ('reference' in o ? o.reference : undefined);

export function connectorContract(title: string, fixture: ConnectorFixture): void {
  describe(`connector contract: ${title}`, () => {
    const connector = fixture.create();

    it('declares a name and what it can do', () => {
      expect(connector.name).to.match(/^[a-z0-9-]+$/);
      const c = connector.capabilities;
      expect(c.methods).to.include('card');
      if (c.currencies !== 'any') for (const code of c.currencies) expect(code).to.match(/^[A-Z]{3}$/);
      for (const flag of ['dms', 'refundsViaApi', 'zeroAmount', 'cardOnFile', 'walletDecryption', 'payouts'] as const) expect(c[flag], flag).to.be.a('boolean');
    });

    it('settles a sale with a reference of its own and a descriptor of at most 20 characters, a new reference each time', async () => {
      const first = await connector.authorize(request(fixture.cards.success));
      const second = await connector.authorize(request(fixture.cards.success));
      if (first.outcome !== 'success' || second.outcome !== 'success') throw new Error(`expected success, got ${JSON.stringify(first)}`);
      expect(first.reference).to.be.a('string').and.not.empty;
      expect(first.reference).not.to.equal(second.reference);
      expect(first.descriptor.length).to.be.within(1, 20);
    });

    it('declines with a reason; softly only when another connector could take it', async () => {
      const hard = await connector.authorize(request(fixture.cards.declined));
      expect(hard).to.include({ outcome: 'declined' });
      if (hard.outcome === 'declined') {
        expect(hard.reason).to.be.a('string').and.not.empty;
        expect(hard.soft ?? false).to.equal(false);
      }
      if (fixture.cards.softDecline) {
        const soft = await connector.authorize(request(fixture.cards.softDecline));
        expect(soft).to.include({ outcome: 'declined', soft: true });
      }
    });

    it('answers follow-ups by its reference, as its capabilities say', async () => {
      const sale = await connector.authorize(request(fixture.cards.success));
      const reference = referenceOf(sale)!;
      const followUp = { paymentId: PAYMENT_ID, operationId: 'op-1', reference, amount: 1250, currency: 'EUR' };
      expect(await connector.void(followUp)).to.include({ outcome: 'success' });
      if (connector.capabilities.refundsViaApi) expect(await connector.refund(followUp)).to.include({ outcome: 'success' });
      if (connector.capabilities.dms) {
        const hold = await connector.authorize(request(fixture.cards.success, { kind: 'authorization' }));
        expect(hold).to.include({ outcome: 'success' });
        const held = { ...followUp, reference: referenceOf(hold)! };
        expect(await connector.capture(held)).to.include({ outcome: 'success' });
        expect(await connector.followUpStatus('capture', held)).to.include({ outcome: 'success' });
      }
    });

    it('finds what it decided for an unanswered request without deciding anew', async () => {
      const sale = await connector.authorize(request(fixture.cards.declined));
      const card = fixture.cards.declined;
      const status = await connector.status({ paymentId: PAYMENT_ID, reference: null, kind: 'sale', amount: 1250, currency: 'EUR', card: { expMonth: card.expMonth, expYear: card.expYear }, returnUrl: RETURN_URL });
      expect(status.outcome).to.equal(sale.outcome);
    });

    if (fixture.cards.payerStep) {
      it('sends the payer to a page it names, and decides only on a return it verified', async () => {
        const step = await connector.authorize(request(fixture.cards.payerStep!));
        if (step.outcome !== 'redirect') throw new Error(`expected a redirect, got ${JSON.stringify(step)}`);
        expect(step.redirect.url).to.match(/^https?:\/\//);
        expect(['GET', 'POST']).to.include(step.redirect.method);
        const base = { paymentId: PAYMENT_ID, reference: step.reference, kind: step.redirect.kind, amount: 1250, currency: 'EUR', saleKind: 'sale' as const };
        expect(await connector.completePayerAction({ ...base, raw: { query: {}, body: {} } })).to.deep.equal({ verified: false });
        const genuine = fixture.payerReturn!(step.redirect, true);
        expect(await connector.completePayerAction({ ...base, paymentId: '00000000-0000-4000-8000-000000000000', raw: genuine })).to.deep.equal({ verified: false });
        const answer = await connector.completePayerAction({ ...base, raw: genuine });
        expect(answer.verified).to.equal(true);
      });
    }

    it('refuses a notification that is not its own', async () => {
      expect(await connector.parseNotification({ body: 'status=executed&trans_id=x', headers: {} })).to.deep.equal({ verified: false });
    });
  });
}
