/**
 * The sandbox acquirer on its own: outcomes by expiry, references that follow-ups quote, the payer's
 * return verified from what the browser sends, card-on-file and latency.
 */
import { expect } from 'chai';
import * as sinon from 'sinon';
import { randomBytes } from 'node:crypto';
import type { ConnectorOutcome, FollowUpRequest, PayerReturn, PaymentRequest } from '../../../src/application/ports/connector';
import {
  SANDBOX_DEFAULT_DESCRIPTOR,
  SandboxConnector,
  sandboxSupportsRecurring,
  signRedirect,
  verifyPaReq,
  verifyRedirectSig,
} from '../../../src/adapters/connectors/sandbox';

const SECRET = randomBytes(32);
const BASE = 'https://gateway.test';
const PAYMENT_ID = '0b9c7a1e-7d2c-4f1e-9a57-2f4b1c3d5e6f';
const RETURN_URL = `${BASE}/payments/${PAYMENT_ID}/3ds-return`;
const NOW = new Date('2026-05-15T12:00:00Z');

type Overrides = Partial<Omit<PaymentRequest, 'instrument'>>;

function request(expMonth: string, expYear: string, overrides: Overrides = {}): PaymentRequest {
  return {
    paymentId: PAYMENT_ID,
    merchantId: 'm-1',
    kind: 'sale',
    amount: 1050,
    currency: 'USD',
    instrument: { kind: 'card', card: { number: '4111111111111111', expMonth, expYear, cvv: '123' } },
    returnUrl: RETURN_URL,
    ...overrides,
  };
}

const sandbox = (options: Partial<ConstructorParameters<typeof SandboxConnector>[0]> = {}) =>
  new SandboxConnector({ secret: SECRET, simulatorBaseUrl: BASE, now: () => NOW, ...options });

/** The reference the sandbox gave the transaction of a card with this expiry. */
async function referenceOf(expMonth: string, expYear: string, overrides: Overrides = {}): Promise<string> {
  const outcome = await sandbox().authorize(request(expMonth, expYear, overrides));
  if (!('reference' in outcome) || !outcome.reference) throw new Error(`no reference in ${JSON.stringify(outcome)}`);
  return outcome.reference;
}

async function followUp(expMonth: string, expYear: string): Promise<FollowUpRequest> {
  return { paymentId: PAYMENT_ID, operationId: 'op-1', reference: await referenceOf(expMonth, expYear, { kind: 'authorization' }), amount: 1050, currency: 'USD' };
}

/** What the payer's browser posts back after the sandbox page of a card with this expiry. */
async function payerReturn(kind: '3ds' | 'redirect', approved: boolean, expMonth: string, expYear: string, cardBrand?: string): Promise<PayerReturn> {
  const outcome = await sandbox().authorize(request(expMonth, expYear));
  if (outcome.outcome !== 'redirect') throw new Error(`expected a redirect, got ${JSON.stringify(outcome)}`);
  const link = new URL(outcome.redirect.url);
  const body: Record<string, string> =
    outcome.redirect.kind === '3ds'
      ? { PaReq: outcome.redirect.params.PaReq!, MD: outcome.redirect.params.MD!, PaRes: approved ? 'approve' : 'decline' }
      : { sig: link.searchParams.get('sig')!, return: link.searchParams.get('return')!, decision: approved ? 'continue' : 'cancel' };
  return { paymentId: PAYMENT_ID, reference: outcome.reference, kind, raw: { query: {}, body }, amount: 1050, currency: 'USD', saleKind: 'sale', ...(cardBrand ? { cardBrand } : {}) };
}

/** The decision of a verified return. */
async function decided(ret: PayerReturn): Promise<ConnectorOutcome> {
  const answer = await sandbox().completePayerAction(ret);
  if (!answer.verified) throw new Error('the return did not verify');
  return answer.outcome;
}

describe('SandboxConnector', () => {
  const connector = sandbox();

  describe('authorize by expiry (docs/reference/sandbox.md#cards-by-expiry)', () => {
    it('01/2038 succeeds, for a sale and for an authorization', async () => {
      const sale = await connector.authorize(request('01', '2038'));
      expect(sale).to.include({ outcome: 'success', descriptor: SANDBOX_DEFAULT_DESCRIPTOR });
      if (sale.outcome === 'success') expect(sale.authCode).to.match(/^[0-9]{6}$/);
      expect(await connector.authorize(request('01', '2038', { kind: 'authorization' }))).to.include({ outcome: 'success' });
    });

    it('02/2038 is declined by the issuer', async () => {
      expect(await connector.authorize(request('02', '2038'))).to.include({ outcome: 'declined', reason: 'Declined by issuer' });
    });

    it('03/2038 authorizes, then its capture is declined', async () => {
      expect(await connector.authorize(request('03', '2038', { kind: 'authorization' }))).to.include({ outcome: 'success' });
      const capture = await connector.capture(await followUp('03', '2038'));
      expect(capture.outcome).to.equal('declined');
      expect(await connector.capture(await followUp('01', '2038'))).to.include({ outcome: 'success' });
    });

    for (const expMonth of ['05', '06']) {
      it(`${expMonth}/2038 asks for 3-D Secure on the gateway's ACS`, async () => {
        const outcome = await connector.authorize(request(expMonth, '2038'));
        if (outcome.outcome !== 'redirect' || outcome.redirect.kind !== '3ds') throw new Error(`unexpected ${JSON.stringify(outcome)}`);
        expect(outcome.redirect.method).to.equal('POST');
        // The same fields as a query: the address also works opened as a plain link.
        const acs = new URL(outcome.redirect.url);
        expect(`${acs.origin}${acs.pathname}`).to.equal(`${BASE}/sandbox/acs`);
        expect(Object.fromEntries(acs.searchParams)).to.deep.equal(outcome.redirect.params);
        expect(outcome.redirect.params.MD).to.equal(PAYMENT_ID);
        expect(outcome.redirect.params.TermUrl).to.equal(RETURN_URL);
        expect(verifyPaReq(SECRET, outcome.redirect.params.PaReq!)).to.deep.equal({
          paymentId: PAYMENT_ID,
          amount: 1050,
          currency: 'USD',
          issuedAt: NOW.toISOString(),
          termUrl: RETURN_URL,
        });
      });
    }

    for (const [expMonth, expYear] of [['12', '2038'], ['12', '2039']]) {
      it(`${expMonth}/${expYear} redirects to the signed sandbox redirect page`, async () => {
        const outcome = await sandbox({ simulatorBaseUrl: `${BASE}/` }).authorize(request(expMonth, expYear));
        if (outcome.outcome !== 'redirect' || outcome.redirect.kind !== 'redirect') throw new Error(`unexpected ${JSON.stringify(outcome)}`);
        expect(outcome.redirect).to.include({ method: 'GET' });
        const url = new URL(outcome.redirect.url);
        expect(`${url.origin}${url.pathname}`).to.equal(`${BASE}/sandbox/redirect/${PAYMENT_ID}`);
        expect(url.searchParams.get('return')).to.equal(RETURN_URL);
        expect(verifyRedirectSig(SECRET, PAYMENT_ID, RETURN_URL, url.searchParams.get('sig')!)).to.equal(true);
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
        const outcome = await decided(await payerReturn(kind, approved, m, y));
        expect(outcome.outcome).to.equal(expected);
        if (outcome.outcome === 'success') expect(outcome.descriptor).to.equal(SANDBOX_DEFAULT_DESCRIPTOR);
        if (outcome.outcome === 'declined') expect(outcome.reason).to.be.a('string').and.not.empty;
      });
    }

    it('declines a payer action that does not fit the transaction', async () => {
      const threeDs = await payerReturn('3ds', true, '05', '2038');
      expect((await decided({ ...threeDs, reference: await referenceOf('12', '2038') })).outcome).to.equal('declined');
    });

    it('refuses a return that does not verify: a forged PaReq, another payment, a wrong MD, an altered link', async () => {
      const threeDs = await payerReturn('3ds', true, '05', '2038');
      const redirect = await payerReturn('redirect', true, '12', '2038');
      const forged: PayerReturn[] = [
        { ...threeDs, raw: { query: {}, body: { ...threeDs.raw.body, PaReq: `${threeDs.raw.body.PaReq}x` } } },
        { ...threeDs, paymentId: '11111111-2222-4333-8444-555555555555' },
        { ...threeDs, raw: { query: {}, body: { ...threeDs.raw.body, MD: 'another' } } },
        { ...threeDs, raw: { query: {}, body: { PaRes: 'approve' } } },
        { ...redirect, raw: { query: {}, body: { ...redirect.raw.body, return: 'https://elsewhere.example/' } } },
        { ...redirect, raw: { query: {}, body: { ...redirect.raw.body, sig: 'x' } } },
      ];
      for (const ret of forged) expect(await sandbox().completePayerAction(ret), JSON.stringify(ret.raw)).to.deep.equal({ verified: false });
    });

    it('accepts the ACS answer without MD (the signed PaReq names the payment) and from the query string', async () => {
      const threeDs = await payerReturn('3ds', true, '05', '2038');
      const { MD: _md, ...withoutMd } = threeDs.raw.body;
      expect((await decided({ ...threeDs, raw: { query: {}, body: withoutMd } })).outcome).to.equal('success');
      expect((await decided({ ...threeDs, raw: { query: withoutMd, body: {} } })).outcome).to.equal('success');
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
      const capture = await connector.capture(await followUp('01', '2038'));
      if (capture.outcome !== 'success') throw new Error('expected success');
      expect(capture.arn).to.match(/^[0-9]{23}$/);
    });

    it('an approved challenge is authenticated (Y) with the brand\'s ECI', async () => {
      const visa = await decided(await payerReturn('3ds', true, '05', '2038', 'VISA'));
      const mc = await decided(await payerReturn('3ds', true, '05', '2038', 'MASTERCARD'));
      if (visa.outcome !== 'success' || mc.outcome !== 'success') throw new Error('expected success');
      expect(visa.threeDS).to.include({ transStatus: 'Y', transStatusReason: '', eci: '05', protocolVersion: '2.2.0', authenticationFlow: 'Challenge' });
      expect(mc.threeDS?.eci).to.equal('02');
      expect(visa.threeDS?.acsTransID).to.match(/^[0-9a-f-]{36}$/);
      expect(visa.threeDS?.acsTransID).not.to.equal(mc.threeDS?.acsTransID);
    });

    it('06/2038 fails authentication (N) even when the payer approves; a refused challenge too', async () => {
      for (const [m, approved] of [['06', true], ['05', false]] as const) {
        const outcome = await decided(await payerReturn('3ds', approved, m, '2038'));
        if (outcome.outcome !== 'declined') throw new Error('expected declined');
        expect(outcome.threeDS).to.include({ transStatus: 'N', transStatusReason: '01', eci: '07' });
      }
    });

    it('a redirect has no 3-D Secure result', async () => {
      const outcome = await decided(await payerReturn('redirect', true, '12', '2038'));
      expect(outcome).not.to.have.property('threeDS');
    });
  });

  it('void, refund and reverse succeed', async () => {
    for (const op of ['void', 'refund', 'reverse'] as const) {
      expect(await connector[op](await followUp('01', '2038')), op).to.deep.equal({ outcome: 'success' });
      expect(await connector[op](await followUp('03', '2038')), op).to.deep.equal({ outcome: 'success' });
    }
  });

  describe('descriptor', () => {
    it('can be configured up to 20 characters', async () => {
      const custom = sandbox({ descriptor: 'SHOP*EXAMPLE.COM1234' });
      expect(await custom.authorize(request('01', '2038'))).to.include({ descriptor: 'SHOP*EXAMPLE.COM1234' });
      expect(() => sandbox({ descriptor: 'X'.repeat(21) })).to.throw(RangeError);
      expect(() => sandbox({ descriptor: '' })).to.throw(RangeError);
    });
  });

  it('refuses a short secret', () => {
    expect(() => sandbox({ secret: randomBytes(8) })).to.throw(RangeError);
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
      const slow = sandbox({ latencyMs: 250 });
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
      if (outcome.outcome !== 'redirect' || outcome.redirect.kind !== '3ds') throw new Error('expected 3ds');
      return outcome.redirect.params.PaReq!;
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

    it('binds a redirect signature to its payment, its return address and its purpose', async () => {
      const sig = signRedirect(SECRET, PAYMENT_ID, RETURN_URL);
      expect(verifyRedirectSig(SECRET, PAYMENT_ID, RETURN_URL, sig)).to.equal(true);
      expect(verifyRedirectSig(SECRET, 'another-payment', RETURN_URL, sig)).to.equal(false);
      expect(verifyRedirectSig(SECRET, PAYMENT_ID, 'https://elsewhere.example/', sig)).to.equal(false);
      expect(verifyRedirectSig(SECRET, PAYMENT_ID, null, sig)).to.equal(false);
      expect(verifyRedirectSig(randomBytes(32), PAYMENT_ID, RETURN_URL, sig)).to.equal(false);
      expect(verifyRedirectSig(SECRET, PAYMENT_ID, RETURN_URL, '')).to.equal(false);
      expect(verifyRedirectSig(SECRET, PAYMENT_ID, RETURN_URL, sig.slice(0, -2))).to.equal(false);
      const paReqMac = (await paReqOf()).split('.')[1];
      expect(verifyRedirectSig(SECRET, PAYMENT_ID, RETURN_URL, paReqMac)).to.equal(false);
      // Links issued before links named their return address are signed over the payment alone.
      expect(verifyRedirectSig(SECRET, PAYMENT_ID, null, signRedirect(SECRET, PAYMENT_ID, null))).to.equal(true);
    });
  });

  it('recurring chains are for the 01/2038 card only', () => {
    expect(sandboxSupportsRecurring({ expMonth: '01', expYear: '2038' })).to.equal(true);
    expect(sandboxSupportsRecurring({ expMonth: '05', expYear: '2038' })).to.equal(false);
  });

  describe('card-on-file', () => {
    const initial = { sequence: 'initial', initiator: 'cardholder', recurring: true } as const;
    const merchantCharge = { sequence: 'subsequent', initiator: 'merchant', recurring: true, requestReference: false } as const;

    it('declines a chain started on any card but 01/2038, even one that would go to 3-D Secure', async () => {
      for (const [month, year] of [['05', '2038'], ['12', '2038'], ['02', '2038'], ['07', '2031']]) {
        const outcome = await sandbox().authorize(request(month, year, { cardOnFile: { ...initial, requestReference: false } }));
        expect(outcome, `${month}/${year}`).to.include({ outcome: 'declined', reason: 'Card is not enabled for recurring payments' });
      }
    });

    it('hands out a card-on-file reference only when asked, and quotes the chain reference on later charges', async () => {
      const plain = await sandbox().authorize(request('01', '2038', { cardOnFile: { ...initial, requestReference: false } }));
      expect(plain).to.include({ outcome: 'success' }).and.not.have.property('cardOnFileId');
      const asked = (await sandbox().authorize(request('01', '2038', { cardOnFile: { ...initial, requestReference: true } }))) as { cardOnFileId?: string };
      expect(asked.cardOnFileId).to.match(/^cof_[0-9a-f]{16}$/);
      const later = await sandbox().authorize(request('01', '2038', { cardOnFile: { ...merchantCharge, requestReference: true, reference: asked.cardOnFileId } }));
      expect(later).to.include({ outcome: 'success', cardOnFileId: asked.cardOnFileId });
    });

    it('never challenges a merchant-initiated charge of a stored card: the payer is not there', async () => {
      const stored = { sequence: 'subsequent', initiator: 'merchant', recurring: false, requestReference: false } as const;
      expect(await sandbox().authorize(request('05', '2038', { cardOnFile: stored }))).to.include({ outcome: 'success' });
      expect(await sandbox().authorize(request('05', '2038', { cardOnFile: { ...stored, initiator: 'cardholder' } }))).to.include({ outcome: 'redirect' });
    });

    it('declines a merchant-initiated charge whose amount ends in 402 minor units, and only that', async () => {
      for (const amount of [402, 1402, 100402]) {
        expect(await sandbox().authorize(request('01', '2038', { amount, cardOnFile: merchantCharge })), String(amount)).to.include({
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
