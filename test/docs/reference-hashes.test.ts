/**
 * The worked examples of docs/reference/hashes.md are the gateway's own numbers: each `hash-example`
 * block is read from the page, every step is recomputed (parts → concatenation → ASCII upper case
 * → the password appended where the formula appends it after upper-casing → md5 → sha1), and the
 * result is recomputed with the formula functions the gateway uses (src/domain/signatures.ts,
 * src/domain/callback/callback-encoding.ts): card, wallet, APM and payout requests and callbacks.
 */
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import * as signatures from '../../src/domain/signatures';
import { callbackSignatureHeader, verifyCallbackSignature } from '../../src/domain/callback/callback-encoding';
import { fencedBlocks, readDoc } from './markdown';

const { apmCallbackBodyHash, asciiUpper, md5hex, sha1hex } = signatures;

/** The formula functions of signatures.ts the examples were recomputed with. */
const used = new Set<string>();
const formulas = new Proxy(signatures, {
  get(target, name: string) {
    used.add(name);
    return target[name as keyof typeof signatures];
  },
});

const PAGE = 'docs/reference/hashes.md';

/** Lines that describe the computation rather than its input. */
const STEPS = new Set(['formula', 'parts', 'concatenated', 'uppercased', 'appended', 'md5', 'sha1', 'result']);

interface Example {
  line: number;
  formula: string;
  /** Inputs in the order the block lists them. */
  inputs: Array<[string, string]>;
  steps: Record<string, string>;
}

function parseExample(line: number, body: string): Example {
  const inputs: Array<[string, string]> = [];
  const steps: Record<string, string> = {};
  for (const text of body.split('\n')) {
    const colon = text.indexOf(': ');
    if (colon < 0) throw new Error(`${PAGE}:${line}: "${text}" is not "name: value"`);
    const [name, value] = [text.slice(0, colon), text.slice(colon + 2)];
    if (STEPS.has(name) || name === 't' || name === 'body' || name === 'signed' || name === 'v1') steps[name] = value;
    else inputs.push([name, value]);
  }
  if (!steps.formula) throw new Error(`${PAGE}:${line}: no formula line`);
  return { line, formula: steps.formula, inputs, steps };
}

function examples(): Example[] {
  return fencedBlocks(readDoc(PAGE), 'hash-example').map(({ line, body }) => parseExample(line, body));
}

/** What the gateway computes for an example's inputs, by formula name. */
function gatewayResult(example: Example): string {
  const input = Object.fromEntries(example.inputs);
  const password = input.password;
  const optionalEmail = input.payer_email;
  switch (example.formula) {
    case 's2s-sale-card':
      return formulas.saleCardHash({ payerEmail: optionalEmail, password, cardNumber: input.card_number });
    case 's2s-sale-card-token':
      return formulas.saleTokenHash({ payerEmail: optionalEmail, password, cardToken: input.card_token });
    case 's2s-trans-id':
      return formulas.transIdHash(input.trans_id, password);
    case 's2s-order-id':
      return formulas.orderIdHash(input.order_id, password);
    case 's2s-schedule-id':
      return formulas.scheduleIdHash(input.schedule_id, password);
    case 's2s-create-schedule':
      return formulas.createScheduleHash(password);
    case 's2s-callback-card':
      return formulas.s2sCardPaymentHash({ payerEmail: optionalEmail, password, transId: input.trans_id, cardMask: input.card });
    case 's2s-callback-card-token':
      return formulas.s2sCardCallbackHash({ payerEmail: optionalEmail, password, transId: input.trans_id, cardToken: input.card_token });
    case 'wallet-sale':
      return formulas.walletSaleHash({ payerEmail: optionalEmail, password });
    case 'apm-sale':
      return formulas.apmSaleHash({ identifier: input.identifier, orderId: input.order_id, orderAmount: input.order_amount, orderCurrency: input.order_currency, password });
    case 'apm-trans-id':
      return formulas.apmTransIdHash(input.trans_id, password);
    case 'apm-creditvoid':
      return formulas.apmCreditvoidHash(input.trans_id, password);
    case 'apm-callback':
      return formulas.apmCallbackBodyHash(example.steps.body, password);
    case 'credit2virtual':
      return formulas.credit2VirtualHash({ orderId: input.order_id, orderAmount: input.order_amount, orderCurrency: input.order_currency, password });
    case 'payout-callback':
      return formulas.payoutCallbackHash({ transId: input.trans_id, orderId: input.order_id, status: input.status, password });
    case 'checkout-callback':
      return formulas.checkoutCallbackHash({
        id: input.id,
        orderNumber: input.order_number,
        orderAmount: input.order_amount,
        orderCurrency: input.order_currency,
        orderDescription: input.order_description,
        password,
      });
    default:
      if (example.formula.startsWith('checkout-')) {
        // Every Checkout request hash: the listed fields in order, then the password.
        return formulas.checkoutHash(
          example.inputs.filter(([name]) => name !== 'password').map(([, value]) => value),
          password,
        );
      }
      throw new Error(`${PAGE}:${example.line}: unknown formula ${example.formula}`);
  }
}

describe('Docs: the worked hash examples match the gateway', () => {
  const all = examples();
  const hashExamples = all.filter((e) => e.formula !== 'x-signature');

  it('Given the page, then it works through every formula the gateway uses', () => {
    expect([...new Set(all.map((e) => e.formula))].sort()).to.deep.equal(
      [
        'apm-callback',
        'apm-creditvoid',
        'apm-sale',
        'apm-trans-id',
        'checkout-callback',
        'checkout-card-credit',
        'checkout-payment-amount',
        'checkout-payment-id',
        'checkout-recurring',
        'checkout-schedule-create',
        'checkout-schedule-id',
        'checkout-session',
        'credit2virtual',
        'payout-callback',
        's2s-callback-card',
        's2s-callback-card-token',
        's2s-create-schedule',
        's2s-order-id',
        's2s-sale-card',
        's2s-sale-card-token',
        's2s-schedule-id',
        's2s-trans-id',
        'wallet-sale',
        'x-signature',
      ].sort(),
    );
  });

  it('When each example is recomputed step by step, then every intermediate value on the page is right', () => {
    for (const e of hashExamples) {
      const at = `${PAGE}:${e.line} (${e.formula})`;
      expect(e.steps.parts.split(' + ').join(''), `${at} parts`).to.equal(e.steps.concatenated);
      expect(asciiUpper(e.steps.concatenated), `${at} uppercased`).to.equal(e.steps.uppercased);
      const { password } = Object.fromEntries(e.inputs);
      // Formulas that append the password after upper-casing say so with an `appended` step.
      if (e.steps.appended !== undefined) expect(e.steps.appended, `${at} appended`).to.equal(e.steps.uppercased + password);
      expect(md5hex(e.steps.appended ?? e.steps.uppercased), `${at} md5`).to.equal(e.steps.md5);
      if (e.steps.sha1 !== undefined) {
        expect(sha1hex(e.steps.md5), `${at} sha1`).to.equal(e.steps.sha1);
        expect(e.steps.result, `${at} result`).to.equal(e.steps.sha1);
      } else {
        expect(e.steps.result, `${at} result`).to.equal(e.steps.md5);
      }
    }
  });

  it("When each example's inputs go through the gateway's own formula, then it gives the page's result", () => {
    for (const e of hashExamples) {
      expect(gatewayResult(e), `${PAGE}:${e.line} (${e.formula})`).to.equal(e.steps.result);
    }
  });

  it("Given the formula functions of the gateway's signatures, then every one is recomputed by some example", () => {
    for (const e of hashExamples) gatewayResult(e);
    // apmCallbackHash is the same formula over parsed fields; the page's example is a raw body.
    const formulaFunctions = Object.keys(signatures).filter((name) => name.endsWith('Hash') && name !== 'apmCallbackHash');
    expect(formulaFunctions.filter((name) => !used.has(name))).to.deep.equal([]);
  });

  it('Then the first S2S SALE example is the Formula 1 test vector', () => {
    const sale = hashExamples.find((e) => e.formula === 's2s-sale-card')!;
    expect(Object.fromEntries(sale.inputs)).to.deep.equal({
      payer_email: 'doe@example.com',
      card_number: '4111111111111111',
      password: '13a4822c5907ed235f3a068c76184fc3',
    });
    expect(sale.steps.result).to.equal('2702ae0c4f99506dc29b5615ba9ee3c0');
  });

  it("When the X-Signature example is signed by the gateway's callback encoder, then header and HMAC match the page", () => {
    const e = all.find((x) => x.formula === 'x-signature')!;
    const { password } = Object.fromEntries(e.inputs);
    const t = Number(e.steps.t);
    expect(e.steps.signed).to.equal(`${e.steps.t}.${e.steps.body}`);
    expect(createHmac('sha256', password).update(e.steps.signed).digest('hex')).to.equal(e.steps.v1);
    expect(callbackSignatureHeader(password, e.steps.body, t)).to.equal(e.steps.result);
    expect(e.steps.result).to.equal(`t=${e.steps.t},v1=${e.steps.v1}`);
    expect(verifyCallbackSignature(password, e.steps.body, e.steps.result, t)).to.equal(true);
  });

  it('Given the test vectors table, then each result is the result of a worked example of its formula', () => {
    // The first example of each formula is its vector.
    const results = new Map([...hashExamples].reverse().map((e) => [e.formula, e.steps.result]));
    const page = readDoc(PAGE);
    const table = page.slice(page.indexOf('## Test vectors'), page.indexOf('## Computing hashes'));
    for (const formula of ['s2s-sale-card', 'apm-callback', 'payout-callback']) {
      expect(table, formula).to.include('`' + results.get(formula) + '`');
    }
  });

  it('Given the APM callback example, then its body is a callback body the gateway signs with that result', () => {
    const e = hashExamples.find((x) => x.formula === 'apm-callback')!;
    expect(e.steps.body).to.match(/^action=SALE&/);
    expect(e.steps.body).not.to.match(/(^|&)hash=/);
    const signed = `${e.steps.body}&hash=${e.steps.result}`;
    expect(readDoc(PAGE)).to.include(`&hash=${e.steps.result}`);
    expect(apmCallbackBodyHash(signed, Object.fromEntries(e.inputs).password)).to.equal(e.steps.result);
  });
});
