/**
 * The Checkout service against a real store (SQLite and PostgreSQL): a session's attempts, where the
 * payer goes after each outcome, double submits, expiry, cancel, and hosted payment fields card data.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { HostedFieldsError, type CheckoutService, type NewSession, type PayInput } from '../../src/application/checkout/checkout-service';
import { MAX_ATTEMPTS } from '../../src/domain/checkout/session-decide';
import { checkoutSessionStreamId } from '../../src/domain/checkout/session-events';
import { checkoutCallbackHash } from '../../src/domain/signatures';
import { sessionData } from '../support/checkout-fixtures';
import { TestClock, forEachStore, type TestMerchant } from '../support/gateway-harness';

function newSession(merchant: TestMerchant, overrides: Partial<NewSession> = {}): NewSession {
  const { sessionId: _id, expiresAt: _expires, createdAt: _created, ...data } = sessionData({
    merchantId: merchant.merchant_id,
    order: { number: `svc-${randomUUID()}`, amount: 1050, amountText: '10.50', currency: 'USD', description: 'Service order' },
    urls: { success: 'https://shop.example/ok?lang=en', cancel: 'https://shop.example/cancel', expiry: null, error: null, return: null },
  });
  return { ...data, expiryMinutes: 30, ...overrides };
}

const card = (expMonth: string, expYear = '38'): PayInput => ({
  card: { number: '4111 1111 1111 1111', expMonth, expYear, cvv: '123', holder: 'John Doe' },
  payerIp: '203.0.113.7',
});

forEachStore('Checkout service', (h) => {
  let merchant: TestMerchant;
  let checkout: CheckoutService;
  beforeEach(async () => {
    merchant = await h().createMerchant();
    checkout = h().gateway.checkout;
  });

  it('sends the payer to success_url with the ids and the Checkout hash, keeping the merchant query', async () => {
    const { session } = await checkout.createSession(newSession(merchant), 'test');
    const outcome = await checkout.pay(session.sessionId, card('01'), 'test');
    expect(outcome?.kind).to.equal('done');
    if (outcome?.kind !== 'done' || outcome.next.kind !== 'merchant') throw new Error(`unexpected ${JSON.stringify(outcome)}`);
    const url = new URL(outcome.next.url);
    expect(url.origin + url.pathname).to.equal('https://shop.example/ok');
    expect(url.searchParams.get('lang')).to.equal('en');
    const paymentId = outcome.payment!.paymentId;
    expect(url.searchParams.get('payment_id')).to.equal(paymentId);
    expect(url.searchParams.get('order_id')).to.equal(session.order.number);
    expect(url.searchParams.get('hash')).to.equal(
      checkoutCallbackHash({
        id: paymentId,
        orderNumber: session.order.number,
        orderAmount: '10.50',
        orderCurrency: 'USD',
        orderDescription: 'Service order',
        password: merchant.password,
      }),
    );
    const events = await h().paymentEvents(paymentId);
    expect(events.map((e) => e.type)).to.deep.equal(['PaymentInitiated', 'PaymentSettled']);
    expect(events[0].data).to.deep.include({ channel: 'checkout', kind: 'sale', orderId: session.order.number });
    expect(JSON.stringify(events.map((e) => [e.data, e.metadata]))).not.to.include('4111111111111111');
  });

  it('brings the payer back to the page after a decline, and the retry is a second payment of the same order', async () => {
    const { session } = await checkout.createSession(newSession(merchant), 'test');
    const first = await checkout.pay(session.sessionId, card('02'), 'test');
    if (first?.kind !== 'done') throw new Error('expected done');
    expect(first.next).to.deep.equal({ kind: 'page', url: checkout.pageUrl(session.sessionId) });
    const page = await checkout.pageModel(session.sessionId);
    expect(page).to.include({ view: 'form', attemptsLeft: MAX_ATTEMPTS - 1 });
    expect(page!.lastDecline?.reason).to.be.a('string').and.not.empty;

    const second = await checkout.pay(session.sessionId, card('01'), 'test');
    if (second?.kind !== 'done') throw new Error('expected done');
    expect(second.next.kind).to.equal('merchant');
    expect(second.payment!.paymentId).not.to.equal(first.payment!.paymentId);
    expect(second.payment!.orderId).to.equal(first.payment!.orderId);
    expect(second.payment!.checkout).to.include({ attempt: 2, sessionId: session.sessionId });
  });

  it('lets only one of two simultaneous submits reach the acquirer', async () => {
    const { session } = await checkout.createSession(newSession(merchant), 'test');
    await Promise.all([checkout.pay(session.sessionId, card('01'), 'a'), checkout.pay(session.sessionId, card('01'), 'b')]);
    const stream = await h().gateway.store.readStream(checkoutSessionStreamId(session.sessionId));
    expect(stream.filter((e) => e.type === 'CheckoutPaymentStarted')).to.have.length(1);
  });

  it('refuses another payment once paid and sends the payer to success_url again', async () => {
    const { session } = await checkout.createSession(newSession(merchant), 'test');
    await checkout.pay(session.sessionId, card('01'), 'test');
    const again = await checkout.pay(session.sessionId, card('01'), 'test');
    if (again?.kind !== 'done') throw new Error('expected done');
    expect(again.next.kind).to.equal('merchant');
    const stream = await h().gateway.store.readStream(checkoutSessionStreamId(session.sessionId));
    expect(stream.filter((e) => e.type === 'CheckoutPaymentStarted')).to.have.length(1);
  });

  it('rejects card data that cannot be charged without recording anything', async () => {
    const { session } = await checkout.createSession(newSession(merchant, { billingAddress: { country: 'US' } }), 'test');
    const outcome = await checkout.pay(
      session.sessionId,
      { card: { number: '4111111111111112', expMonth: '01', expYear: '2020', cvv: '1', holder: '' }, payerIp: '203.0.113.7' },
      'test',
    );
    expect(outcome?.kind).to.equal('invalid');
    if (outcome?.kind !== 'invalid') return;
    // Codes, not sentences: the pages word them (api/checkout-page/messages.ts).
    expect(outcome.problems).to.have.deep.members([
      { field: 'card_expiry', problem: 'invalid' },
      { field: 'card_number', problem: 'invalid' },
      { field: 'card_cvv', problem: 'invalid', digits: 3 },
      { field: 'billing_state', problem: 'missing' },
    ]);
    const stream = await h().gateway.store.readStream(checkoutSessionStreamId(session.sessionId));
    expect(stream.map((e) => e.type)).to.deep.equal(['CheckoutSessionCreated']);
  });

  it('asks for the security code the card brand prints: 4 digits on American Express, 3 on the others', async () => {
    const { session } = await checkout.createSession(newSession(merchant), 'test');
    const amex = await checkout.pay(session.sessionId, { card: { number: '378282246310005', expMonth: '01', expYear: '38', cvv: '123', holder: 'J' }, payerIp: '203.0.113.7' }, 'test');
    expect(amex).to.deep.equal({ kind: 'invalid', problems: [{ field: 'card_cvv', problem: 'invalid', digits: 4 }] });
    const visa = await checkout.pay(session.sessionId, { card: { number: '4111111111111111', expMonth: '01', expYear: '38', cvv: '1234', holder: 'J' }, payerIp: '203.0.113.7' }, 'test');
    expect(visa).to.deep.equal({ kind: 'invalid', problems: [{ field: 'card_cvv', problem: 'invalid', digits: 3 }] });
  });

  it('after session_expiry the page sends the payer to expiry_url, else cancel_url, and records the expiry', async () => {
    const clock = h().clock as TestClock;
    const { session } = await checkout.createSession(newSession(merchant, { expiryMinutes: 1 }), 'test');
    const { session: withExpiryUrl } = await checkout.createSession(
      newSession(merchant, { expiryMinutes: 1, urls: { success: 'https://shop.example/ok', cancel: 'https://shop.example/cancel', expiry: 'https://shop.example/expired', error: null, return: null } }),
      'test',
    );
    clock.advance(61_000);
    const page = await checkout.pageModel(session.sessionId);
    expect(page?.next).to.deep.include({ kind: 'merchant' });
    expect((page!.next as { url: string }).url).to.match(/^https:\/\/shop\.example\/cancel\?payment_id=&trans_id=&order_id=/);
    const other = await checkout.pageModel(withExpiryUrl.sessionId);
    expect((other!.next as { url: string }).url).to.match(/^https:\/\/shop\.example\/expired\?/);
    const stream = await h().gateway.store.readStream(checkoutSessionStreamId(session.sessionId));
    expect(stream.map((e) => e.type)).to.deep.equal(['CheckoutSessionCreated', 'CheckoutSessionExpired']);
    const late = await checkout.pay(session.sessionId, card('01'), 'test');
    expect(late?.kind === 'done' && late.payment).to.equal(null);
  });

  it('sends a cancelling payer to cancel_url, opened in the url_target the session asked for', async () => {
    const { session } = await checkout.createSession(newSession(merchant, { urlTarget: '_blank' }), 'test');
    const next = await checkout.cancel(session.sessionId, 'test');
    expect(next).to.deep.include({ kind: 'merchant', target: '_blank' });
    expect((next as { url: string }).url).to.match(/^https:\/\/shop\.example\/cancel\?payment_id=&trans_id=&order_id=/);
    const stream = await h().gateway.store.readStream(checkoutSessionStreamId(session.sessionId));
    expect(stream.map((e) => e.type)).to.deep.equal(['CheckoutSessionCreated', 'CheckoutSessionCancelled']);
  });

  it('after the last allowed decline the payer goes to error_url (else cancel_url)', async () => {
    const { session } = await checkout.createSession(newSession(merchant), 'test');
    let outcome;
    for (let i = 0; i < MAX_ATTEMPTS; i++) outcome = await checkout.pay(session.sessionId, card('02'), 'test');
    if (outcome?.kind !== 'done' || outcome.next.kind !== 'merchant') throw new Error('expected a return to the merchant');
    expect(outcome.next.url).to.match(/^https:\/\/shop\.example\/cancel\?payment_id=/);
  });

  it('a debit stores the card, so its payment carries a card token', async () => {
    const { session } = await checkout.createSession(newSession(merchant, { operation: 'debit' }), 'test');
    const outcome = await checkout.pay(session.sessionId, card('01'), 'test');
    if (outcome?.kind !== 'done') throw new Error('expected done');
    expect(outcome.payment).to.include({ kind: 'debit', status: 'SETTLED' });
    expect(outcome.payment!.card!.token).to.be.a('string');
  });

  it('a credit of a stored card asks only for the expiry, and refuses one that does not match', async () => {
    const debit = await checkout.createSession(newSession(merchant, { operation: 'debit' }), 'test');
    const paid = await checkout.pay(debit.session.sessionId, card('01'), 'test');
    const token = paid?.kind === 'done' ? paid.payment!.card!.token! : '';
    const { session } = await checkout.createSession(newSession(merchant, { operation: 'credit', cardToken: token, payee: { firstName: 'Jane', lastName: 'Roe' } }), 'test');
    const page = await checkout.pageModel(session.sessionId);
    expect(page).to.deep.include({ storedCardMask: '411111******1111', holderName: 'Jane Roe', needs: { cardNumber: false, cvv: false, billingState: false } });
    const wrong = await checkout.pay(session.sessionId, { card: { expMonth: '02', expYear: '38' }, payerIp: '203.0.113.7' }, 'test');
    expect(wrong?.kind).to.equal('invalid');
    const right = await checkout.pay(session.sessionId, { card: { expMonth: '01', expYear: '38' }, payerIp: '203.0.113.7' }, 'test');
    if (right?.kind !== 'done') throw new Error('expected done');
    expect(right.payment).to.include({ kind: 'credit', status: 'SETTLED' });
  });

  it('hosted payment fields: card data is taken once by the processing request, the name coming with it', async () => {
    const { token } = await checkout.createSession(newSession(merchant, { hostedFields: true, customer: {}, urls: { success: null, cancel: null, expiry: null, error: null, return: 'https://shop.example/return' } }), 'test');
    expect(await checkout.holdCardData(token, { number: '4111111111111112', expMonth: '05', expYear: '2038', cvv: '123' })).to.deep.equal({
      held: false,
      refusal: 'invalid_card',
      problems: [{ field: 'card_number', problem: 'invalid' }],
    });
    expect(await checkout.holdCardData(token, { number: '4111111111111111', expMonth: '05', expYear: '2038', cvv: '123' })).to.deep.equal({ held: true });
    const payment = await checkout.processHostedFields(token, 'purchase', { name: 'John Doe', callerIp: '198.51.100.1' }, 'test');
    expect(payment?.phase).to.equal('awaiting_3ds');
    expect(payment?.payerAction?.params).to.have.keys('PaReq', 'MD', 'TermUrl');
    let error: unknown;
    try {
      await checkout.processHostedFields(token, 'purchase', { name: 'John Doe', callerIp: '198.51.100.1' }, 'test');
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(HostedFieldsError).and.to.deep.include({ refusal: { problem: 'session', code: 'payment_in_progress' } });
    expect(await checkout.holdCardData('forged', { number: '4111111111111111', expMonth: '05', expYear: '2038', cvv: '123' })).to.deep.equal({
      held: false,
      refusal: 'invalid_token',
    });
  });

  it('a session with no URL for how it ended says so as a code, for the page to word', async () => {
    const { session } = await checkout.createSession(
      newSession(merchant, { urls: { success: 'https://shop.example/ok', cancel: null, expiry: null, error: null, return: null } }),
      'test',
    );

    expect(await checkout.cancel(session.sessionId, 'test')).to.deep.equal({ kind: 'closed', ending: 'cancelled' });
  });
});
