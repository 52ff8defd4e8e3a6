import { expect } from 'chai';
import * as sinon from 'sinon';
import { randomBytes } from 'node:crypto';
import type { AuthorizeRequest, ConnectorOutcome, FollowUpRequest } from '../../src/application/ports/connector';
import {
  SANDBOX_DEFAULT_DESCRIPTOR,
  SandboxConnector,
  sandboxSupportsRecurring,
  signRedirect,
  verifyPaReq,
  verifyRedirectSig,
} from '../../src/adapters/connectors/sandbox-connector';

const SECRET = randomBytes(32);
const BASE = 'https://gateway.test';
const PAYMENT_ID = '0b9c7a1e-7d2c-4f1e-9a57-2f4b1c3d5e6f';
const NOW = new Date('2026-05-15T12:00:00Z');

function request(expMonth: string, expYear: string, overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  return {
    paymentId: PAYMENT_ID,
    merchantId: 'm-1',
    kind: 'sale',
    amount: 1050,
    currency: 'USD',
    card: { number: '4111111111111111', expMonth, expYear, cvv: '123' },
    gatewayBaseUrl: BASE,
    ...overrides,
  };
}

function followUp(expMonth: string, expYear: string): FollowUpRequest {
  return { paymentId: PAYMENT_ID, operationId: 'op-1', amount: 1050, currency: 'USD', card: { expMonth, expYear } };
}

function payerAction(kind: '3ds' | 'redirect', approved: boolean, expMonth: string, expYear: string) {
  return { paymentId: PAYMENT_ID, kind, approved, card: { expMonth, expYear }, amount: 1050, currency: 'USD', saleKind: 'sale' as const };
}

describe('SandboxConnector', () => {
  const connector = new SandboxConnector({ secret: SECRET, now: () => NOW });

  describe('authorize by expiry (decisions.md §4)', () => {
    it('01/2038 succeeds, for a sale and for an authorization', async () => {
      const sale = await connector.authorize(request('01', '2038'));
      expect(sale).to.include({ outcome: 'success', descriptor: SANDBOX_DEFAULT_DESCRIPTOR });
      if (sale.outcome === 'success') expect(sale.authCode).to.match(/^[0-9]{6}$/);
      expect(await connector.authorize(request('01', '2038', { kind: 'authorization' }))).to.include({ outcome: 'success' });
    });

    it('02/2038 is declined by the issuer', async () => {
      expect(await connector.authorize(request('02', '2038'))).to.deep.equal({ outcome: 'declined', reason: 'Declined by issuer' });
    });

    it('03/2038 authorizes, then its capture is declined', async () => {
      expect(await connector.authorize(request('03', '2038', { kind: 'authorization' }))).to.include({ outcome: 'success' });
      const capture = await connector.capture(followUp('03', '2038'));
      expect(capture.outcome).to.equal('declined');
      expect(await connector.capture(followUp('01', '2038'))).to.include({ outcome: 'success' });
    });

    for (const expMonth of ['05', '06']) {
      it(`${expMonth}/2038 asks for 3-D Secure on the gateway's ACS`, async () => {
        const outcome = await connector.authorize(request(expMonth, '2038'));
        if (outcome.outcome !== 'pending' || outcome.action.kind !== '3ds') throw new Error(`unexpected ${JSON.stringify(outcome)}`);
        expect(outcome.action.acsUrl).to.equal(`${BASE}/sandbox/acs`);
        expect(outcome.action.md).to.equal(PAYMENT_ID);
        expect(outcome.action.termUrl).to.equal(`${BASE}/payments/${PAYMENT_ID}/3ds-return`);
        expect(verifyPaReq(SECRET, outcome.action.paReq)).to.deep.equal({
          paymentId: PAYMENT_ID,
          amount: 1050,
          currency: 'USD',
          issuedAt: NOW.toISOString(),
        });
      });
    }

    for (const [expMonth, expYear] of [['12', '2038'], ['12', '2039']]) {
      it(`${expMonth}/${expYear} redirects to the signed sandbox redirect page`, async () => {
        const outcome = await connector.authorize(request(expMonth, expYear, { gatewayBaseUrl: `${BASE}/` }));
        if (outcome.outcome !== 'pending' || outcome.action.kind !== 'redirect') throw new Error(`unexpected ${JSON.stringify(outcome)}`);
        const url = new URL(outcome.action.redirectUrl);
        expect(`${url.origin}${url.pathname}`).to.equal(`${BASE}/sandbox/redirect/${PAYMENT_ID}`);
        expect(verifyRedirectSig(SECRET, PAYMENT_ID, url.searchParams.get('sig')!)).to.equal(true);
      });
    }

    it('any other future expiry succeeds', async () => {
      for (const [m, y] of [['04', '2038'], ['11', '2030'], ['5', '2027'], ['05', '2026']]) {
        expect(await connector.authorize(request(m, y)), `${m}/${y}`).to.include({ outcome: 'success' });
      }
    });

    it('a past expiry is declined', async () => {
      expect((await connector.authorize(request('04', '2026'))).outcome).to.equal('declined');
    });
  });

  describe('after the payer acts', () => {
    const cases: Array<[string, '3ds' | 'redirect', boolean, 'success' | 'declined']> = [
      ['05/2038', '3ds', true, 'success'],
      ['05/2038', '3ds', false, 'declined'],
      ['06/2038', '3ds', true, 'declined'],
      ['06/2038', '3ds', false, 'declined'],
      ['12/2038', 'redirect', true, 'success'],
      ['12/2038', 'redirect', false, 'declined'],
      ['12/2039', 'redirect', true, 'declined'],
      ['12/2039', 'redirect', false, 'declined'],
    ];
    for (const [expiry, kind, approved, expected] of cases) {
      it(`${expiry} ${kind} ${approved ? 'approved' : 'refused'} -> ${expected}`, async () => {
        const [m, y] = expiry.split('/');
        const outcome: ConnectorOutcome = await connector.completePayerAction(payerAction(kind, approved, m, y));
        expect(outcome.outcome).to.equal(expected);
        if (outcome.outcome === 'success') expect(outcome.descriptor).to.equal(SANDBOX_DEFAULT_DESCRIPTOR);
        if (outcome.outcome === 'declined') expect(outcome.reason).to.be.a('string').and.not.empty;
      });
    }

    it('declines a payer action that does not fit the card', async () => {
      expect((await connector.completePayerAction(payerAction('redirect', true, '05', '2038'))).outcome).to.equal('declined');
      expect((await connector.completePayerAction(payerAction('3ds', true, '12', '2038'))).outcome).to.equal('declined');
    });
  });

  describe('references and the 3-D Secure result', () => {
    it('a sale gets an RRN and, as it settles at once, an ARN; an authorization only an RRN', async () => {
      const sale = await connector.authorize(request('01', '2038'));
      const auth = await connector.authorize(request('01', '2038', { kind: 'authorization' }));
      if (sale.outcome !== 'success' || auth.outcome !== 'success') throw new Error('expected success');
      expect(sale.rrn).to.match(/^[0-9]{12}$/);
      expect(sale.arn).to.match(/^[0-9]{23}$/);
      expect(auth.rrn).to.match(/^[0-9]{12}$/);
      expect(auth).not.to.have.property('arn');
    });

    it('a settled capture gets an ARN', async () => {
      const capture = await connector.capture(followUp('01', '2038'));
      if (capture.outcome !== 'success') throw new Error('expected success');
      expect(capture.arn).to.match(/^[0-9]{23}$/);
    });

    it('an approved challenge is authenticated (Y) with the brand\'s ECI', async () => {
      const visa = await connector.completePayerAction({ ...payerAction('3ds', true, '05', '2038'), card: { expMonth: '05', expYear: '2038', brand: 'VISA' } });
      const mc = await connector.completePayerAction({ ...payerAction('3ds', true, '05', '2038'), card: { expMonth: '05', expYear: '2038', brand: 'MASTERCARD' } });
      if (visa.outcome !== 'success' || mc.outcome !== 'success') throw new Error('expected success');
      expect(visa.threeDS).to.include({ transStatus: 'Y', transStatusReason: '', eci: '05', protocolVersion: '2.2.0', authenticationFlow: 'Challenge' });
      expect(mc.threeDS?.eci).to.equal('02');
      expect(visa.threeDS?.acsTransID).to.match(/^[0-9a-f-]{36}$/);
      expect(visa.threeDS?.acsTransID).not.to.equal(mc.threeDS?.acsTransID);
    });

    it('06/2038 fails authentication (N) even when the payer approves; a refused challenge too', async () => {
      for (const [m, approved] of [['06', true], ['05', false]] as const) {
        const outcome = await connector.completePayerAction(payerAction('3ds', approved, m, '2038'));
        if (outcome.outcome !== 'declined') throw new Error('expected declined');
        expect(outcome.threeDS).to.include({ transStatus: 'N', transStatusReason: '01', eci: '07' });
      }
    });

    it('a redirect has no 3-D Secure result', async () => {
      const outcome = await connector.completePayerAction(payerAction('redirect', true, '12', '2038'));
      expect(outcome).not.to.have.property('threeDS');
    });
  });

  it('void, refund and reverse succeed', async () => {
    for (const op of ['void', 'refund', 'reverse'] as const) {
      expect(await connector[op](followUp('01', '2038')), op).to.deep.equal({ outcome: 'success' });
      expect(await connector[op](followUp('03', '2038')), op).to.deep.equal({ outcome: 'success' });
    }
  });

  describe('descriptor', () => {
    it('can be configured up to 20 characters', async () => {
      const custom = new SandboxConnector({ secret: SECRET, descriptor: 'SHOP*EXAMPLE.COM1234', now: () => NOW });
      expect(await custom.authorize(request('01', '2038'))).to.include({ descriptor: 'SHOP*EXAMPLE.COM1234' });
      expect(() => new SandboxConnector({ secret: SECRET, descriptor: 'X'.repeat(21) })).to.throw(RangeError);
      expect(() => new SandboxConnector({ secret: SECRET, descriptor: '' })).to.throw(RangeError);
    });
  });

  it('refuses a short secret', () => {
    expect(() => new SandboxConnector({ secret: randomBytes(8) })).to.throw(RangeError);
  });

  describe('latency', () => {
    let clock: sinon.SinonFakeTimers;
    beforeEach(() => {
      clock = sinon.useFakeTimers({ now: NOW });
    });
    afterEach(() => clock.restore());

    it('answers without any timer when latency is 0', async () => {
      const outcome = await connector.authorize(request('01', '2038'));
      expect(outcome.outcome).to.equal('success');
      expect(clock.countTimers()).to.equal(0);
    });

    it('waits latencyMs before answering when configured', async () => {
      const slow = new SandboxConnector({ secret: SECRET, latencyMs: 250, now: () => NOW });
      let settled = false;
      const pending = slow.authorize(request('01', '2038')).then((o) => {
        settled = true;
        return o;
      });
      await clock.tickAsync(249);
      expect(settled).to.equal(false);
      await clock.tickAsync(1);
      expect((await pending).outcome).to.equal('success');
    });
  });

  describe('signed PaReq and redirect links', () => {
    const paReqOf = async () => {
      const outcome = await connector.authorize(request('05', '2038'));
      if (outcome.outcome !== 'pending' || outcome.action.kind !== '3ds') throw new Error('expected 3ds');
      return outcome.action.paReq;
    };

    it('rejects a PaReq with an altered amount, a wrong secret or garbage', async () => {
      const paReq = await paReqOf();
      const [body, mac] = paReq.split('.');
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      const forged = Buffer.from(JSON.stringify({ ...payload, amount: 1 })).toString('base64url');
      expect(verifyPaReq(SECRET, `${forged}.${mac}`)).to.equal(null);
      expect(verifyPaReq(randomBytes(32), paReq)).to.equal(null);
      for (const junk of ['', '.', 'abc', `${body}.`, `${body}.${mac}.x`, `${body}.${mac}x`]) {
        expect(verifyPaReq(SECRET, junk), junk).to.equal(null);
      }
    });

    it('rejects a PaReq older than maxAgeMs', async () => {
      const paReq = await paReqOf();
      const later = new Date(NOW.getTime() + 16 * 60 * 1000);
      expect(verifyPaReq(SECRET, paReq, { now: later, maxAgeMs: 15 * 60 * 1000 })).to.equal(null);
      expect(verifyPaReq(SECRET, paReq, { now: NOW, maxAgeMs: 15 * 60 * 1000 })).to.not.equal(null);
    });

    it('binds a redirect signature to its payment and purpose', async () => {
      const sig = signRedirect(SECRET, PAYMENT_ID);
      expect(verifyRedirectSig(SECRET, PAYMENT_ID, sig)).to.equal(true);
      expect(verifyRedirectSig(SECRET, 'another-payment', sig)).to.equal(false);
      expect(verifyRedirectSig(randomBytes(32), PAYMENT_ID, sig)).to.equal(false);
      expect(verifyRedirectSig(SECRET, PAYMENT_ID, '')).to.equal(false);
      expect(verifyRedirectSig(SECRET, PAYMENT_ID, sig.slice(0, -2))).to.equal(false);
      const paReqMac = (await paReqOf()).split('.')[1];
      expect(verifyRedirectSig(SECRET, PAYMENT_ID, paReqMac)).to.equal(false);
    });
  });

  it('recurring chains are for the 01/2038 card only', () => {
    expect(sandboxSupportsRecurring({ expMonth: '01', expYear: '2038' })).to.equal(true);
    expect(sandboxSupportsRecurring({ expMonth: '05', expYear: '2038' })).to.equal(false);
  });

  describe('card-on-file', () => {
    const sandbox = () => new SandboxConnector({ secret: SECRET, now: () => NOW });
    const initial = { sequence: 'initial', initiator: 'cardholder', recurring: true } as const;
    const merchantCharge = { sequence: 'subsequent', initiator: 'merchant', recurring: true, requestReference: false } as const;

    it('declines a chain started on any card but 01/2038, even one that would go to 3-D Secure', async () => {
      for (const [month, year] of [['05', '2038'], ['12', '2038'], ['02', '2038'], ['07', '2031']]) {
        const outcome = await sandbox().authorize(request(month, year, { cardOnFile: { ...initial, requestReference: false } }));
        expect(outcome, `${month}/${year}`).to.deep.equal({ outcome: 'declined', reason: 'Card is not enabled for recurring payments' });
      }
    });

    it('hands out a card-on-file reference only when asked, and quotes the chain reference on later charges', async () => {
      const plain = await sandbox().authorize(request('01', '2038', { cardOnFile: { ...initial, requestReference: false } }));
      expect(plain).to.include({ outcome: 'success' }).and.not.have.property('cardOnFileId');
      const asked = (await sandbox().authorize(request('01', '2038', { cardOnFile: { ...initial, requestReference: true } }))) as { cardOnFileId?: string };
      expect(asked.cardOnFileId).to.match(/^cof_[0-9a-f]{24}$/);
      const later = await sandbox().authorize(request('01', '2038', { cardOnFile: { ...merchantCharge, requestReference: true, reference: asked.cardOnFileId } }));
      expect(later).to.include({ outcome: 'success', cardOnFileId: asked.cardOnFileId });
    });

    it('never challenges a merchant-initiated charge of a stored card: the payer is not there', async () => {
      const stored = { sequence: 'subsequent', initiator: 'merchant', recurring: false, requestReference: false } as const;
      expect(await sandbox().authorize(request('05', '2038', { cardOnFile: stored }))).to.include({ outcome: 'success' });
      expect(await sandbox().authorize(request('05', '2038', { cardOnFile: { ...stored, initiator: 'cardholder' } }))).to.include({ outcome: 'pending' });
    });

    it('declines a merchant-initiated charge whose amount ends in 402 minor units, and only that', async () => {
      for (const amount of [402, 1402, 100402]) {
        expect(await sandbox().authorize(request('01', '2038', { amount, cardOnFile: merchantCharge })), String(amount)).to.deep.equal({
          outcome: 'declined',
          reason: 'Insufficient funds',
        });
      }
      for (const amount of [401, 403, 4020, 1050]) {
        expect(await sandbox().authorize(request('01', '2038', { amount, cardOnFile: merchantCharge })), String(amount)).to.include({ outcome: 'success' });
      }
      // The payer's own payment of that amount is not affected.
      expect(await sandbox().authorize(request('01', '2038', { amount: 402 }))).to.include({ outcome: 'success' });
    });
  });
});
