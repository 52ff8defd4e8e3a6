/**
 * What every connector owes the gateway, the same tests for each (as the event-store contract suite
 * is for stores). A connector's fixture says which instruments (cards, alternative methods) produce
 * which of its outcomes, how a payer's browser answers its pages and what its provider's
 * notifications look like; the suite holds it to the port's promises, skipping what its
 * capabilities say it cannot do.
 */
import { expect } from 'chai';
import type { Connector, ConnectorOutcome, PayerRedirect, PaymentInstrument, PaymentRequest, StatusRequest } from '../../src/application/ports/connector';
import type { RawPayerReturn } from '../../src/application/payments';

export interface ConnectorFixture {
  create(): Connector;
  instruments: {
    success: PaymentInstrument;
    declined: PaymentInstrument;
    /** A decline another connector may take (cascading), where the connector has one. */
    softDecline?: PaymentInstrument;
    /** An instrument sent to the connector's page (3-D Secure or a provider redirect), where it has one. */
    payerStep?: PaymentInstrument;
    /** An instrument the provider accepts and decides later (a notification tells), where it has one. */
    pending?: PaymentInstrument;
  };
  /** What the payer's browser posts back after the connector's page. */
  payerReturn?(redirect: PayerRedirect, approved: boolean): RawPayerReturn;
  /** A genuine notification of the connector's provider about a transaction, as it arrives. */
  notification?(paymentId: string, reference: string, approved: boolean): { body: string; headers: Record<string, string> };
}

const PAYMENT_ID = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const RETURN_URL = `https://gateway.test/payments/${PAYMENT_ID}/3ds-return`;

function request(instrument: PaymentInstrument, overrides: Partial<Omit<PaymentRequest, 'instrument'>> = {}): PaymentRequest {
  return { paymentId: PAYMENT_ID, merchantId: 'm-1', kind: 'sale', amount: 1250, currency: 'EUR', instrument, returnUrl: RETURN_URL, ...overrides };
}

/** What the gateway would have recorded of a request made with `instrument`, for a status lookup. */
function statusOf(instrument: PaymentInstrument): StatusRequest {
  const base = { paymentId: PAYMENT_ID, reference: null, kind: 'sale' as const, amount: 1250, currency: 'EUR', returnUrl: RETURN_URL };
  switch (instrument.kind) {
    case 'card':
      return { ...base, card: { expMonth: instrument.card.expMonth, expYear: instrument.card.expYear } };
    case 'method':
      return { ...base, method: { method: instrument.method, parameters: instrument.parameters, ...(instrument.identifier ? { identifier: instrument.identifier } : {}) } };
    case 'wallet_token':
      // The virtual flow records the wallet as the payment's method, never its token.
      return { ...base, method: { method: instrument.wallet, parameters: {}, ...(instrument.identifier ? { identifier: instrument.identifier } : {}) } };
    default:
      return base;
  }
}

const referenceOf = (o: ConnectorOutcome): string | undefined => ('reference' in o ? o.reference : undefined);

export function connectorContract(title: string, fixture: ConnectorFixture): void {
  describe(`connector contract: ${title}`, () => {
    const connector = fixture.create();

    it('declares a name and what it can do', () => {
      expect(connector.name).to.match(/^[a-z0-9-]+$/);
      const c = connector.capabilities;
      expect(c.methods).to.be.an('array').that.is.not.empty;
      for (const method of c.methods) expect(method).to.match(/^[a-z0-9-]+$/);
      if (c.currencies !== 'any') for (const code of c.currencies) expect(code).to.match(/^[A-Z]{3}$/);
      for (const flag of ['dms', 'refundsViaApi', 'zeroAmount', 'cardOnFile', 'walletDecryption', 'payouts'] as const) expect(c[flag], flag).to.be.a('boolean');
    });

    it('settles a sale with a reference of its own and a descriptor of at most 20 characters, a new reference each time', async () => {
      const first = await connector.authorize(request(fixture.instruments.success));
      const second = await connector.authorize(request(fixture.instruments.success));
      if (first.outcome !== 'success' || second.outcome !== 'success') throw new Error(`expected success, got ${JSON.stringify(first)}`);
      expect(first.reference).to.be.a('string').and.not.empty;
      expect(first.reference).not.to.equal(second.reference);
      expect(first.descriptor.length).to.be.within(1, 20);
    });

    it('declines with a reason; softly only when another connector could take it', async () => {
      const hard = await connector.authorize(request(fixture.instruments.declined));
      expect(hard).to.include({ outcome: 'declined' });
      if (hard.outcome === 'declined') {
        expect(hard.reason).to.be.a('string').and.not.empty;
        expect(hard.soft ?? false).to.equal(false);
      }
      if (fixture.instruments.softDecline) {
        const soft = await connector.authorize(request(fixture.instruments.softDecline));
        expect(soft).to.include({ outcome: 'declined', soft: true });
      }
    });

    it('answers follow-ups by its reference, as its capabilities say', async () => {
      const sale = await connector.authorize(request(fixture.instruments.success));
      const reference = referenceOf(sale)!;
      const followUp = { paymentId: PAYMENT_ID, operationId: 'op-1', reference, amount: 1250, currency: 'EUR' };
      expect(await connector.void(followUp)).to.include({ outcome: 'success' });
      if (connector.capabilities.refundsViaApi) expect(await connector.refund(followUp)).to.include({ outcome: 'success' });
      if (connector.capabilities.dms) {
        const hold = await connector.authorize(request(fixture.instruments.success, { kind: 'authorization' }));
        expect(hold).to.include({ outcome: 'success' });
        const held = { ...followUp, reference: referenceOf(hold)! };
        expect(await connector.capture(held)).to.include({ outcome: 'success' });
        expect(await connector.followUpStatus('capture', held)).to.include({ outcome: 'success' });
      }
    });

    it('finds what it decided for an unanswered request without deciding anew', async () => {
      for (const instrument of [fixture.instruments.declined, fixture.instruments.success]) {
        const sale = await connector.authorize(request(instrument));
        const status = await connector.status(statusOf(instrument));
        expect(status.outcome).to.equal(sale.outcome);
      }
    });

    if (fixture.instruments.payerStep) {
      it('sends the payer to a page it names, and decides only on a return it verified', async () => {
        const step = await connector.authorize(request(fixture.instruments.payerStep!));
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

    if (fixture.instruments.pending) {
      it('accepts a payment it decides later with a reference, and decides it by its own notification only', async () => {
        const accepted = await connector.authorize(request(fixture.instruments.pending!));
        if (accepted.outcome !== 'pending') throw new Error(`expected pending, got ${JSON.stringify(accepted)}`);
        expect(accepted.reference).to.be.a('string').and.not.empty;
        const approved = fixture.notification!(PAYMENT_ID, accepted.reference, true);
        const told = await connector.parseNotification(approved);
        if (!told.verified) throw new Error('its own notification did not verify');
        expect(told.paymentId).to.equal(PAYMENT_ID);
        expect(told.outcome).to.include({ outcome: 'success', reference: accepted.reference });
        const declined = await connector.parseNotification(fixture.notification!(PAYMENT_ID, accepted.reference, false));
        expect(declined.verified && declined.outcome.outcome).to.equal('declined');
        // Altered on the way: the body no longer matches what the provider signed.
        const forged = { ...approved, body: approved.body.replace(PAYMENT_ID, '00000000-0000-4000-8000-000000000000') };
        expect(await connector.parseNotification(forged)).to.deep.equal({ verified: false });
        expect(await connector.parseNotification({ body: approved.body, headers: {} })).to.deep.equal({ verified: false });
        // Still undecided when the gateway asks: it never decides anew by being asked.
        expect((await connector.status({ ...statusOf(fixture.instruments.pending!), reference: accepted.reference })).outcome).to.equal('pending');
      });
    }

    if (connector.describeMethod) {
      it('describes the parameters of every alternative method it offers', () => {
        for (const method of connector.capabilities.methods.filter((m) => m !== 'card')) {
          const description = connector.describeMethod!(method);
          expect(description, method).to.not.equal(null);
          expect(description!.method).to.equal(method);
          for (const field of description!.fields) expect(['required', 'optional', 'collected']).to.include(field.presence);
        }
      });
    }

    it('refuses a notification that is not its own', async () => {
      expect(await connector.parseNotification({ body: 'status=executed&trans_id=x', headers: {} })).to.deep.equal({ verified: false });
    });
  });
}
