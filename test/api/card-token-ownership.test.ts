/**
 * A stored card belongs to the merchant whose payment stored it. Given merchant A's `card_token`,
 * when merchant B pays, credits or opens a credit session with it, then B gets exactly the answer
 * for a token that does not exist (`205005`), nothing is recorded for B, and A's token keeps working.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { operationHash, postJson, sessionBody, type Json } from '../support/checkout-client';
import { storedCardToken } from '../support/checkout-payments';
import { forEachStore, type HttpResult, type TestGateway, type TestMerchant } from '../support/gateway-harness';

const NO_CARD = { card_number: undefined, card_exp_month: undefined, card_exp_year: undefined, card_cvv2: undefined };
const UNKNOWN_TOKEN = `ct_${'0'.repeat(32)}`;
const NOT_FOUND = { result: 'ERROR', error_code: 205005, error_message: 'Card token is invalid or not found.' };

function credit(t: TestGateway, m: TestMerchant, token: string): Promise<HttpResult> {
  const fields: Json = {
    operation: 'credit',
    order_id: `cr-${randomUUID()}`,
    order_amount: '99.00',
    order_currency: 'USD',
    order_description: 'Payout to stored card',
    card_token: token,
  };
  const hash = operationHash([fields.order_id, fields.order_amount, fields.order_currency, fields.order_description], m.password);
  return postJson(t, '/api/v1/payment/card/credit', { merchant_key: m.merchant_key, ...fields, hash });
}

forEachStore('Card tokens belong to the merchant that stored them', (h) => {
  let a: TestMerchant;
  let b: TestMerchant;
  beforeEach(async () => {
    a = await h().createMerchant();
    b = await h().createMerchant();
  });

  it("Given A's card_token, when B sends an S2S SALE of 99.00 with it, then B gets 205005 as for an unknown token and nothing is recorded", async () => {
    const stored = await h().sale(a, { req_token: 'Y' });
    const token: string = stored.body.card_token;
    expect(token, stored.text).to.match(/^ct_/);

    const borrowed = await h().sale(b, { ...NO_CARD, card_token: token, order_amount: '99.00' });
    const unknown = await h().sale(b, { ...NO_CARD, card_token: UNKNOWN_TOKEN, order_amount: '99.00' });

    expect(borrowed.status, borrowed.text).to.equal(400);
    expect(borrowed.body).to.deep.equal(NOT_FOUND);
    expect(unknown.status).to.equal(400);
    expect(unknown.body).to.deep.equal(borrowed.body);
    expect(await h().initiatedForOrder(b, borrowed.fields.order_id!)).to.have.length(0);

    const own = await h().sale(a, { ...NO_CARD, card_token: token });
    expect(own.body, own.text).to.include({ result: 'SUCCESS', status: 'SETTLED' });
  });

  it("Given A's card_token, when B credits it on Checkout, then B gets 205005 as for an unknown token", async () => {
    const token = await storedCardToken(h(), a);

    const borrowed = await credit(h(), b, token);
    const unknown = await credit(h(), b, UNKNOWN_TOKEN);

    expect(borrowed.status, borrowed.text).to.equal(400);
    expect(borrowed.body).to.deep.equal(NOT_FOUND);
    expect(unknown.body).to.deep.equal(borrowed.body);
    const own = await credit(h(), a, token);
    expect(own.status, own.text).to.equal(200);
  });

  it("Given A's card_token, when B opens a credit session with it, then B gets 205005 as for an unknown token", async () => {
    const token = await storedCardToken(h(), a);

    const borrowed = await postJson(h(), '/api/v1/session', sessionBody(b, { operation: 'credit', card_token: token }));
    const unknown = await postJson(h(), '/api/v1/session', sessionBody(b, { operation: 'credit', card_token: UNKNOWN_TOKEN }));

    expect(borrowed.status, borrowed.text).to.equal(400);
    expect(borrowed.body).to.deep.equal(NOT_FOUND);
    expect(unknown.body).to.deep.equal(borrowed.body);
    const own = await postJson(h(), '/api/v1/session', sessionBody(a, { operation: 'credit', card_token: token }));
    expect(own.status, own.text).to.equal(200);
  });
});
