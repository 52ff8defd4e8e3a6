/**
 * What an S2S CARD merchant is told on each payment state change: which events call back with
 * which action/result/status, the fields of each body, the hash, custom data, and the Protocol
 * Mapping switches (off by default, then each one on its own).
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { callbackFieldsFor, type CallbackContext } from '../../src/domain/callback/callback-content';
import { checkoutCallbackFields } from '../../src/domain/callback/checkout-callback';
import { s2sCardReturnUrl } from '../../src/domain/callback/return-url';
import {
  CALLBACK_FIELD_SWITCHES,
  PROTOCOL_MAPPING_FIELDS,
  noProtocolMapping,
  protocolMapping,
  type CallbackFieldSwitch,
} from '../../src/domain/merchant/protocol-mapping';
import type { PaymentEvent, ThreeDSAttributes } from '../../src/domain/payment/events';
import { evolvePayment, foldPayment, type ExistingPayment } from '../../src/domain/payment/state';
import {
  T1,
  T2,
  T3,
  authorizationReversed,
  captureDeclined,
  captureRequested,
  captureSucceeded,
  creditVoidRequested,
  paymentAuthorized,
  paymentDeclined,
  paymentInitiated,
  paymentOutcomeUnknown,
  paymentSettled,
  paymentVoided,
  payerRedirectRequired,
  refundDeclined,
  refundSucceeded,
  reversalDeclined,
  threeDSChallengeRequired,
  voidDeclined,
  voidRequested,
} from '../support/payment-fixtures';

const PASSWORD = '13a4822c5907ed235f3a068c76184fc3';
const PAYMENT_ID = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const OFF: CallbackContext = { password: PASSWORD, protocolMapping: noProtocolMapping() };
const on = (...fields: CallbackFieldSwitch[]): CallbackContext => ({ password: PASSWORD, protocolMapping: protocolMapping({ fields }) });

const md5 = (data: Buffer | string) => createHash('md5').update(data).digest('hex');
const reversed = (s: string) => Buffer.from(s, 'utf8').reverse();
/** docs/reference/hashes.md#s2s-card-callback-and-return-url, written out independently of the code under test (ASCII inputs only). */
function expectedHash(email: string, transId: string, last: string): string {
  return md5(Buffer.concat([reversed(email), Buffer.from(PASSWORD), Buffer.from(transId), reversed(last)]).toString('latin1').toUpperCase());
}

const initiated = (o: Parameters<typeof paymentInitiated>[0] = {}) =>
  paymentInitiated({
    paymentId: PAYMENT_ID,
    orderId: 'order-42',
    amount: 1050,
    amountText: '10.50',
    card: { mask: '411111******1111', brand: 'VISA', expMonth: '01', expYear: '2038', token: null },
    payer: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', ip: '203.0.113.7' },
    ...o,
  });

/** Folds `history`, then returns the callback of its last event. */
function callbackAfter(history: PaymentEvent[], ctx: CallbackContext = OFF) {
  const before = foldPayment(history.slice(0, -1));
  const event = history[history.length - 1];
  const after = evolvePayment(before, event) as ExistingPayment;
  return callbackFieldsFor(event, after, ctx);
}

const asMap = (fields: Array<[string, string]> | null) => new Map(fields ?? []);
const names = (fields: Array<[string, string]> | null) => (fields ?? []).map(([n]) => n);

describe('S2S CARD callback content', () => {
  describe('a settled sale', () => {
    it('carries the fields of the spec in a fixed order, hash last', () => {
      const fields = callbackAfter([initiated(), paymentSettled(PAYMENT_ID, { amount: 1050, descriptor: 'SHOP*TICKETS', settledAt: '2024-05-01T10:00:01.250Z' })]);

      expect(fields).to.deep.equal([
        ['action', 'SALE'],
        ['result', 'SUCCESS'],
        ['status', 'SETTLED'],
        ['order_id', 'order-42'],
        ['trans_id', PAYMENT_ID],
        ['trans_date', '2024-05-01 10:00:01'],
        ['descriptor', 'SHOP*TICKETS'],
        ['amount', '10.50'],
        ['currency', 'USD'],
        ['card', '411111******1111'],
        ['card_expiration_date', '01/2038'],
        ['customer_ip', '203.0.113.7'],
        ['hash', expectedHash('ada@example.com', PAYMENT_ID, '4111111111')],
      ]);
    });

    it('never carries a card number, only its mask', () => {
      const fields = callbackAfter([initiated(), paymentSettled(PAYMENT_ID)], on(...CALLBACK_FIELD_SWITCHES));
      expect(JSON.stringify(fields)).not.to.match(/\d{12,19}/);
    });

    it('hashes without the email when the payer gave none', () => {
      const fields = callbackAfter([initiated({ payer: { firstName: 'Ada', lastName: 'Lovelace' } }), paymentSettled(PAYMENT_ID)]);
      expect(asMap(fields).get('hash')).to.equal(expectedHash('', PAYMENT_ID, '4111111111'));
      expect(asMap(fields).has('customer_ip')).to.equal(false);
    });

    it('hashes with strrev(card_token) for a payment made with a card token', () => {
      const fields = callbackAfter([
        initiated({ cardSource: 'card_token', card: { mask: '411111******1111', brand: 'VISA', expMonth: '01', expYear: '2038', token: 'tok_abc123' } }),
        paymentSettled(PAYMENT_ID),
      ]);
      expect(asMap(fields).get('hash')).to.equal(expectedHash('ada@example.com', PAYMENT_ID, 'tok_abc123'));
    });

    it('still hashes the card digits when a card number payment only stored its card (req_token=Y)', () => {
      const fields = callbackAfter([
        initiated({ card: { mask: '411111******1111', brand: 'VISA', expMonth: '01', expYear: '2038', token: 'tok_new' } }),
        paymentSettled(PAYMENT_ID),
      ]);
      expect(asMap(fields).get('hash')).to.equal(expectedHash('ada@example.com', PAYMENT_ID, '4111111111'));
    });

    it('sends custom_data as bracketed fields, nested ones too', () => {
      const fields = callbackAfter([
        initiated({ customData: { basket: 'B-7', meta: { source: 'app', tags: ['a', 'b'] } } }),
        paymentSettled(PAYMENT_ID),
      ]);
      const map = asMap(fields);
      expect(map.get('custom_data[basket]')).to.equal('B-7');
      expect(map.get('custom_data[meta][source]')).to.equal('app');
      expect(map.get('custom_data[meta][tags][1]')).to.equal('b');
    });
  });

  describe('which events call back, as what', () => {
    const id = PAYMENT_ID;
    const auth = () => initiated({ kind: 'authorization' });
    const cases: Array<{ title: string; history: () => PaymentEvent[]; expected: Record<string, string> }> = [
      { title: 'PaymentSettled', history: () => [initiated(), paymentSettled(id)], expected: { action: 'SALE', result: 'SUCCESS', status: 'SETTLED' } },
      { title: 'PaymentAuthorized', history: () => [auth(), paymentAuthorized(id)], expected: { action: 'SALE', result: 'SUCCESS', status: 'PENDING' } },
      {
        title: 'PaymentDeclined',
        history: () => [initiated(), paymentDeclined(id, { reason: 'Declined by issuer' })],
        expected: { action: 'SALE', result: 'DECLINED', status: 'DECLINED', decline_reason: 'Declined by issuer', amount: '10.50' },
      },
      { title: 'ThreeDSChallengeRequired', history: () => [initiated(), threeDSChallengeRequired(id)], expected: { action: 'SALE', result: 'REDIRECT', status: '3DS' } },
      { title: 'PayerRedirectRequired', history: () => [initiated(), payerRedirectRequired(id)], expected: { action: 'SALE', result: 'REDIRECT', status: 'REDIRECT' } },
      {
        title: 'CaptureSucceeded (partial: the captured amount)',
        history: () => [auth(), paymentAuthorized(id, { amount: 1050 }), captureRequested(id, { operationId: 'c1', amount: 700 }), captureSucceeded(id, { operationId: 'c1', amount: 700 })],
        expected: { action: 'CAPTURE', result: 'SUCCESS', status: 'SETTLED', amount: '7.00' },
      },
      {
        title: 'CaptureDeclined (status unchanged)',
        history: () => [auth(), paymentAuthorized(id), captureRequested(id, { operationId: 'c1' }), captureDeclined(id, { operationId: 'c1', reason: 'Capture declined by acquirer' })],
        expected: { action: 'CAPTURE', result: 'DECLINED', status: 'PENDING', decline_reason: 'Capture declined by acquirer' },
      },
      {
        title: 'PaymentVoided',
        history: () => [initiated(), paymentSettled(id), voidRequested(id, { operationId: 'v1' }), paymentVoided(id, { operationId: 'v1', amount: 1050 })],
        expected: { action: 'VOID', result: 'SUCCESS', status: 'VOID', amount: '10.50' },
      },
      {
        title: 'VoidDeclined (status unchanged)',
        history: () => [initiated(), paymentSettled(id), voidRequested(id, { operationId: 'v1' }), voidDeclined(id, { operationId: 'v1' })],
        expected: { action: 'VOID', result: 'DECLINED', status: 'SETTLED', decline_reason: 'Already captured' },
      },
      {
        title: 'RefundSucceeded, partial (status stays SETTLED)',
        history: () => [initiated(), paymentSettled(id, { amount: 1050 }), creditVoidRequested(id, { operationId: 'r1', amount: 300 }), refundSucceeded(id, { operationId: 'r1', amount: 300 })],
        expected: { action: 'CREDITVOID', result: 'SUCCESS', status: 'SETTLED', amount: '3.00' },
      },
      {
        title: 'RefundSucceeded, full (status REFUND)',
        history: () => [initiated(), paymentSettled(id, { amount: 1050 }), creditVoidRequested(id, { operationId: 'r1', amount: 1050 }), refundSucceeded(id, { operationId: 'r1', amount: 1050 })],
        expected: { action: 'CREDITVOID', result: 'SUCCESS', status: 'REFUND', amount: '10.50' },
      },
      {
        title: 'RefundDeclined',
        history: () => [initiated(), paymentSettled(id), creditVoidRequested(id, { operationId: 'r1' }), refundDeclined(id, { operationId: 'r1' })],
        expected: { action: 'CREDITVOID', result: 'DECLINED', status: 'SETTLED', decline_reason: 'Refund window closed' },
      },
      {
        title: 'AuthorizationReversed, full (status REVERSAL)',
        history: () => [auth(), paymentAuthorized(id, { amount: 1050 }), creditVoidRequested(id, { operationId: 'x1', kind: 'reversal', amount: 1050 }), authorizationReversed(id, { operationId: 'x1', amount: 1050 })],
        expected: { action: 'CREDITVOID', result: 'SUCCESS', status: 'REVERSAL' },
      },
      {
        title: 'AuthorizationReversed, partial (status stays PENDING)',
        history: () => [auth(), paymentAuthorized(id, { amount: 1050 }), creditVoidRequested(id, { operationId: 'x1', kind: 'reversal', amount: 50 }), authorizationReversed(id, { operationId: 'x1', amount: 50 })],
        expected: { action: 'CREDITVOID', result: 'SUCCESS', status: 'PENDING', amount: '0.50' },
      },
      {
        title: 'ReversalDeclined',
        history: () => [auth(), paymentAuthorized(id), creditVoidRequested(id, { operationId: 'x1', kind: 'reversal' }), reversalDeclined(id, { operationId: 'x1' })],
        expected: { action: 'CREDITVOID', result: 'DECLINED', status: 'PENDING', decline_reason: 'Hold already released' },
      },
    ];
    for (const { title, history, expected } of cases) {
      it(`${title} → ${expected.action} ${expected.result} ${expected.status}`, () => {
        const fields = callbackAfter(history());
        expect(Object.fromEntries(fields!)).to.include(expected);
        expect(names(fields).at(-1)).to.equal('hash');
        if (expected.result !== 'DECLINED') expect(names(fields)).not.to.include('decline_reason');
      });
    }

    it('dates each callback with its own event, not the payment', () => {
      const fields = callbackAfter([initiated(), paymentSettled(PAYMENT_ID), voidRequested(PAYMENT_ID, { operationId: 'v1' }), paymentVoided(PAYMENT_ID, { operationId: 'v1', voidedAt: T3 })]);
      expect(asMap(fields).get('trans_date')).to.equal('2024-05-01 11:00:00');
    });

    it('formats the amount in the currency exponent (JPY has none)', () => {
      const fields = callbackAfter([initiated({ currency: 'JPY', amount: 1500, amountText: '1500' }), paymentSettled(PAYMENT_ID, { amount: 1500 })]);
      expect(asMap(fields).get('amount')).to.equal('1500');
      expect(asMap(fields).get('currency')).to.equal('JPY');
    });

    it('a 3DS challenge tells where to send the payer', () => {
      const map = asMap(callbackAfter([initiated(), threeDSChallengeRequired(PAYMENT_ID)]));
      expect(map.get('redirect_url')).to.equal('https://acs.example.com/challenge');
      expect(map.get('redirect_params[PaReq]')).to.equal('pareq-value');
      expect(map.get('redirect_params[MD]')).to.equal(`md-${PAYMENT_ID}`);
      expect(map.get('redirect_params[TermUrl]')).to.equal('https://gateway.example.com/3ds/return');
      expect(map.get('redirect_method')).to.equal('POST');
    });

    it('intents, the first record and an unknown outcome do not call back', () => {
      const history: PaymentEvent[] = [initiated({ kind: 'authorization' })];
      const quiet: PaymentEvent[] = [
        initiated({ kind: 'authorization' }),
        paymentOutcomeUnknown(PAYMENT_ID),
        captureRequested(PAYMENT_ID),
        voidRequested(PAYMENT_ID),
        creditVoidRequested(PAYMENT_ID),
      ];
      for (const event of quiet) {
        const after = evolvePayment(foldPayment(history), event) as ExistingPayment;
        expect(callbackFieldsFor(event, after, OFF), event.type).to.equal(null);
      }
    });
  });

  describe('Protocol Mapping', () => {
    const THREE_DS: ThreeDSAttributes = {
      threeDSServerTransID: '1b6a9f0e-0000-4000-8000-000000000001',
      dsTransID: '1b6a9f0e-0000-4000-8000-000000000002',
      acsTransID: '1b6a9f0e-0000-4000-8000-000000000003',
      xid: 'eGlkLXZhbHVl',
      transStatus: 'Y',
      transStatusReason: '',
      eci: '05',
      protocolVersion: '2.2.0',
      authenticationFlow: 'Challenge',
    };
    const afterChallenge = (): PaymentEvent[] => [
      initiated({
        payer: {
          firstName: 'Ada',
          lastName: 'Lovelace',
          birthDate: '1815-12-10',
          address: '12 St James Square',
          address2: 'Flat 3',
          houseNumber: '12',
          phoneCountryCode: '+44',
          country: 'GB',
          state: 'LND',
          city: 'London',
          district: 'Westminster',
          zip: 'SW1Y 4JH',
          email: 'ada@example.com',
          phone: '2079460000',
          ip: '203.0.113.7',
        },
      }),
      threeDSChallengeRequired(PAYMENT_ID),
      paymentSettled(PAYMENT_ID, {
        rrn: '123456789012',
        arn: '74123456789012345678901',
        threeDS: THREE_DS,
        browser: {
          colorDepth: 24,
          screenHeight: 1080,
          screenWidth: 1920,
          javaEnabled: false,
          javascriptEnabled: true,
          language: 'en-GB',
          timezoneOffset: -60,
          userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
          acceptHeaders: 'text/html,application/xhtml+xml',
          platform: 'Linux x86_64',
        },
      }),
    ];

    it('adds nothing while every switch is off (the default)', () => {
      const fields = callbackAfter(afterChallenge());
      const optional = Object.values(PROTOCOL_MAPPING_FIELDS).flat().filter((n) => n !== 'card' && n !== 'card_expiration_date');
      expect(names(fields).filter((n) => optional.includes(n))).to.deep.equal([]);
    });

    const expectedBySwitch: Record<CallbackFieldSwitch, Record<string, string>> = {
      card: {},
      brand: { brand: 'VISA' },
      arn_rrn: { arn: '74123456789012345678901', rrn: '123456789012' },
      card_on_file: { initiator: 'cardholder', source: 'new_card', sequence: 'single' },
      checkout_payment_method: { checkout_payment_method: 'card' },
      three_ds: {
        threeDSServerTransID: THREE_DS.threeDSServerTransID,
        dsTransID: THREE_DS.dsTransID,
        acsTransID: THREE_DS.acsTransID,
        xid: 'eGlkLXZhbHVl',
        transStatus: 'Y',
        transStatusReason: '',
        eci: '05',
        protocolVersion: '2.2.0',
        authenticationFlow: 'Challenge',
      },
      browser: {
        browser_color_depth: '24',
        browser_screen_height: '1080',
        browser_screen_width: '1920',
        browser_java_enabled: 'false',
        browser_javascript_enabled: 'true',
        browser_language: 'en-GB',
        browser_timezone_offset: '-60',
        browser_user_agent: 'Mozilla/5.0 (X11; Linux x86_64)',
        browser_accept_headers: 'text/html,application/xhtml+xml',
        browser_platform: 'Linux x86_64',
      },
      wallet: { digital_wallet: '', pan_type: '' },
      payer_first_name: { payer_first_name: 'Ada' },
      payer_last_name: { payer_last_name: 'Lovelace' },
      payer_birth_date: { payer_birth_date: '1815-12-10' },
      payer_address: { payer_address: '12 St James Square' },
      payer_address2: { payer_address2: 'Flat 3' },
      payer_house_number: { payer_house_number: '12' },
      payer_phone_country_code: { payer_phone_country_code: '+44' },
      payer_country: { payer_country: 'GB' },
      payer_state: { payer_state: 'LND' },
      payer_city: { payer_city: 'London' },
      payer_district: { payer_district: 'Westminster' },
      payer_zip: { payer_zip: 'SW1Y 4JH' },
      payer_email: { payer_email: 'ada@example.com' },
      payer_phone: { payer_phone: '2079460000' },
      payer_ip: { payer_ip: '203.0.113.7' },
    };
    for (const group of CALLBACK_FIELD_SWITCHES) {
      it(`${group} on its own adds exactly its fields, before the hash`, () => {
        const fields = callbackAfter(afterChallenge(), on(group));
        const base = callbackAfter(afterChallenge());
        const added = fields!.filter(([n]) => !base!.some(([b]) => b === n));
        expect(added).to.deep.equal(Object.entries(expectedBySwitch[group]));
        expect(names(fields).at(-1)).to.equal('hash');
        expect(asMap(fields).get('hash')).to.equal(asMap(base).get('hash'));
      });
    }

    it('sends a switched-on field without a value as an empty field (ARN of an authorization, 3DS of a payment without a challenge)', () => {
      const authorized = callbackAfter([initiated({ kind: 'authorization' }), paymentAuthorized(PAYMENT_ID, { rrn: '000111222333' })], on('arn_rrn', 'three_ds', 'browser', 'payer_district'));
      const map = asMap(authorized);
      expect(map.get('rrn')).to.equal('000111222333');
      expect(map.get('arn')).to.equal('');
      expect(map.get('eci')).to.equal('');
      expect(map.get('browser_user_agent')).to.equal('');
      expect(map.get('payer_district')).to.equal('');
    });

    it('keeps the RRN of the authorization and adds the ARN of its capture', () => {
      const map = asMap(
        callbackAfter(
          [
            initiated({ kind: 'authorization' }),
            paymentAuthorized(PAYMENT_ID, { rrn: '000111222333' }),
            captureRequested(PAYMENT_ID, { operationId: 'c1' }),
            captureSucceeded(PAYMENT_ID, { operationId: 'c1', arn: '74000000000000000000001' }),
          ],
          on('arn_rrn'),
        ),
      );
      expect(map.get('rrn')).to.equal('000111222333');
      expect(map.get('arn')).to.equal('74000000000000000000001');
    });

    it('card-on-file: a stored card is subsequent, a card being stored is initial', () => {
      const stored = asMap(
        callbackAfter(
          [initiated({ cardSource: 'card_token', card: { mask: '411111******1111', brand: 'VISA', expMonth: '01', expYear: '2038', token: 'tok_1' } }), paymentSettled(PAYMENT_ID)],
          on('card_on_file'),
        ),
      );
      expect([stored.get('initiator'), stored.get('source'), stored.get('sequence')]).to.deep.equal(['cardholder', 'stored_card', 'subsequent']);
      const storing = asMap(callbackAfter([initiated({ recurringInit: true }), paymentSettled(PAYMENT_ID)], on('card_on_file')));
      expect([storing.get('source'), storing.get('sequence')]).to.deep.equal(['new_card', 'initial']);
    });

    it('keeps its canonical order whatever order the switches were given in', () => {
      const a = callbackAfter(afterChallenge(), { password: PASSWORD, protocolMapping: protocolMapping({ fields: ['payer_ip', 'brand'] }) });
      const b = callbackAfter(afterChallenge(), { password: PASSWORD, protocolMapping: protocolMapping({ fields: ['brand', 'payer_ip'] }) });
      expect(a).to.deep.equal(b);
      expect(names(a).indexOf('brand')).to.be.below(names(a).indexOf('payer_ip'));
    });

    it('refuses a switch that does not exist', () => {
      expect(() => protocolMapping({ fields: ['brand', 'pan'] })).to.throw(/pan/);
      expect(() => protocolMapping({ returnParameters: ['order_status'] })).to.throw(/order_status/);
    });
  });

  describe('recurring chains', () => {
    const INIT_ID = '0d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a';
    const SCHEDULE_ID = '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d';
    const chainStart = (o: Parameters<typeof paymentInitiated>[0] = {}) =>
      initiated({ recurringInit: true, recurring: { role: 'initial', initPaymentId: PAYMENT_ID, token: 'chain-token-1' }, ...o });
    /** A later charge of the chain INIT_ID, paid with the chain's stored card. */
    const chainCharge = (role: 'recurring' | 'scheduled' = 'recurring', o: Parameters<typeof paymentInitiated>[0] = {}) =>
      initiated({
        card: { mask: '411111******1111', brand: 'VISA', expMonth: '01', expYear: '2038', token: 'tok_chain' },
        cardSource: 'card_number',
        payerPresent: false,
        recurring:
          role === 'recurring'
            ? { role, initPaymentId: INIT_ID }
            : { role, initPaymentId: INIT_ID, scheduleId: SCHEDULE_ID, sequence: 2, dueDate: '2024-06-01' },
        ...o,
      });

    it('a settled chain start is a SALE carrying recurring_token after custom_data and before the mapping fields, hash last', () => {
      const fields = callbackAfter([chainStart({ customData: { ref: 'r1' } }), paymentSettled(PAYMENT_ID)], on('brand'));
      expect(names(fields).slice(-5)).to.deep.equal(['customer_ip', 'custom_data[ref]', 'recurring_token', 'brand', 'hash']);
      expect(asMap(fields).get('action')).to.equal('SALE');
      expect(asMap(fields).get('recurring_token')).to.equal('chain-token-1');
      expect(asMap(fields).get('hash')).to.equal(expectedHash('ada@example.com', PAYMENT_ID, '4111111111'));
    });

    it("the connector's card-on-file reference is the token when the merchant asked for one", () => {
      const fields = callbackAfter([chainStart(), paymentSettled(PAYMENT_ID, { cardOnFileId: 'cof_abc' })]);
      expect(asMap(fields).get('recurring_token')).to.equal('cof_abc');
    });

    it('a declined chain start has no token to hand out', () => {
      const fields = callbackAfter([chainStart(), paymentDeclined(PAYMENT_ID, { reason: 'Card is not enabled for recurring payments' })]);
      expect(asMap(fields).get('action')).to.equal('SALE');
      expect(names(fields)).not.to.include('recurring_token');
    });

    it('a chain start with a schedule names it, its first date and the values the merchant sent', () => {
      const schedule = { scheduleId: SCHEDULE_ID, firstDueDate: '2024-06-01', anchorDay: 1, startDate: '2024-06-01', amount: 300, amountText: '3.00', amountSent: true };
      const fields = callbackAfter([chainStart({ recurring: { role: 'initial', initPaymentId: PAYMENT_ID, token: 't', schedule } }), paymentSettled(PAYMENT_ID)]);
      expect(fields!.slice(-6)).to.deep.equal([
        ['recurring_token', 't'],
        ['schedule_id', SCHEDULE_ID],
        ['schedule_start_date', '2024-06-01'],
        ['payment_schedule_amount', '3.00'],
        ['first_recurring_date', '2024-06-01'],
        ['hash', expectedHash('ada@example.com', PAYMENT_ID, '4111111111')],
      ]);
    });

    const chainCases: Array<{ title: string; history: () => PaymentEvent[]; expected: Record<string, string> }> = [
      {
        title: 'a RECURRING_SALE that settled',
        history: () => [chainCharge(), paymentSettled(PAYMENT_ID)],
        expected: { action: 'RECURRING_SALE', result: 'SUCCESS', status: 'SETTLED', recurring_first_trans_id: INIT_ID },
      },
      {
        title: 'a RECURRING_SALE that was declined',
        history: () => [chainCharge(), paymentDeclined(PAYMENT_ID, { reason: 'Insufficient funds' })],
        expected: { action: 'RECURRING_SALE', result: 'DECLINED', status: 'DECLINED', decline_reason: 'Insufficient funds' },
      },
      {
        title: 'a RECURRING_DEBIT of a debit chain',
        history: () => [chainCharge('recurring', { kind: 'debit' }), paymentSettled(PAYMENT_ID)],
        expected: { action: 'RECURRING_DEBIT', result: 'SUCCESS', status: 'SETTLED', recurring_first_trans_id: INIT_ID },
      },
      {
        title: 'a scheduled payment',
        history: () => [chainCharge('scheduled'), paymentSettled(PAYMENT_ID)],
        expected: { action: 'RECURRING_SALE', result: 'SUCCESS', recurring_first_trans_id: INIT_ID, schedule_id: SCHEDULE_ID },
      },
      {
        title: 'a scheduled debit that was declined',
        history: () => [chainCharge('scheduled', { kind: 'debit' }), paymentDeclined(PAYMENT_ID)],
        expected: { action: 'RECURRING_DEBIT', result: 'DECLINED', schedule_id: SCHEDULE_ID },
      },
      {
        title: 'a refund of a RECURRING_SALE (the follow-up keeps its own action)',
        history: () => [chainCharge(), paymentSettled(PAYMENT_ID), refundSucceeded(PAYMENT_ID, { amount: 1050 })],
        expected: { action: 'CREDITVOID', result: 'SUCCESS', status: 'REFUND', recurring_first_trans_id: INIT_ID },
      },
    ];
    for (const { title, history, expected } of chainCases) {
      it(`${title} → ${expected.action} ${expected.result}`, () => {
        const fields = callbackAfter(history());
        expect(Object.fromEntries(fields!)).to.include(expected);
        // Same hash formula: the chain's card digits, as the chain's first payment was paid by card number.
        expect(fields![fields!.length - 1]).to.deep.equal(['hash', expectedHash('ada@example.com', PAYMENT_ID, '4111111111')]);
        expect(names(fields)).not.to.include('recurring_token');
      });
    }

    it('card-on-file: a chain charge is a merchant-initiated use of the stored card', () => {
      const map = asMap(callbackAfter([chainCharge(), paymentSettled(PAYMENT_ID)], on('card_on_file')));
      expect([map.get('initiator'), map.get('source'), map.get('sequence')]).to.deep.equal(['merchant', 'stored_card', 'subsequent']);
      const scheduled = asMap(callbackAfter([chainCharge('scheduled'), paymentSettled(PAYMENT_ID)], on('card_on_file')));
      expect(scheduled.get('initiator')).to.equal('merchant');
    });

    it('card-on-file: a chain start is cardholder-initiated and initial', () => {
      const map = asMap(callbackAfter([chainStart(), paymentSettled(PAYMENT_ID)], on('card_on_file')));
      expect([map.get('initiator'), map.get('source'), map.get('sequence')]).to.deep.equal(['cardholder', 'new_card', 'initial']);
    });

    it('card-on-file: a card_token SALE with payer_present=N is merchant-initiated', () => {
      const tokenCard = { mask: '411111******1111', brand: 'VISA', expMonth: '01', expYear: '2038', token: 'tok_1' };
      const map = asMap(callbackAfter([initiated({ cardSource: 'card_token', card: tokenCard, payerPresent: false }), paymentSettled(PAYMENT_ID)], on('card_on_file')));
      expect([map.get('initiator'), map.get('source'), map.get('sequence')]).to.deep.equal(['merchant', 'stored_card', 'subsequent']);
      expect(map.get('action')).to.equal('SALE');
    });
  });

  describe('return URL', () => {
    const settled = () => foldPayment([initiated({ termUrl3ds: 'https://shop.example/back?cart=7&lang=en#done' }), paymentSettled(PAYMENT_ID)]) as ExistingPayment;

    it('appends payment_id, trans_id, order_id and the callback hash, keeping the merchant query', () => {
      const url = new URL(s2sCardReturnUrl(settled(), { password: PASSWORD, protocolMapping: noProtocolMapping() })!);
      expect(url.origin + url.pathname).to.equal('https://shop.example/back');
      expect(url.hash).to.equal('#done');
      expect([...url.searchParams]).to.deep.equal([
        ['cart', '7'],
        ['lang', 'en'],
        ['payment_id', PAYMENT_ID],
        ['trans_id', PAYMENT_ID],
        ['order_id', 'order-42'],
        ['hash', expectedHash('ada@example.com', PAYMENT_ID, '4111111111')],
      ]);
    });

    it('adds the chosen return parameters', () => {
      const url = new URL(s2sCardReturnUrl(settled(), { password: PASSWORD, protocolMapping: protocolMapping({ returnParameters: ['brand', 'payment_method'] }) })!);
      expect(url.searchParams.get('payment_method')).to.equal('card');
      expect(url.searchParams.get('brand')).to.equal('VISA');
    });

    it('a merchant parameter cannot stand in for ours', () => {
      const p = foldPayment([initiated({ termUrl3ds: 'https://shop.example/back?trans_id=forged' }), paymentSettled(PAYMENT_ID)]) as ExistingPayment;
      const url = new URL(s2sCardReturnUrl(p, { password: PASSWORD, protocolMapping: noProtocolMapping() })!);
      expect(url.searchParams.getAll('trans_id')).to.deep.equal([PAYMENT_ID]);
    });
  });
});

describe('Checkout callback content', () => {
  it('carries the Checkout fields with sha1(md5(upper(id + order + password))) as hash', () => {
    const fields = checkoutCallbackFields(
      {
        id: PAYMENT_ID,
        orderNumber: 'order-42',
        orderAmount: '10.50',
        orderCurrency: 'USD',
        orderDescription: 'Two tickets',
        orderStatus: 'decline',
        type: 'sale',
        status: 'fail',
        reason: 'Declined by issuer',
        card: { mask: '411111******1111', expMonth: '1', expYear: '2038' },
        customer: { name: 'Ada Lovelace', email: 'ada@example.com', ip: '203.0.113.7' },
        date: T1,
        customData: { basket: 'B-7' },
      },
      PASSWORD,
    );
    const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');
    expect(fields).to.deep.equal([
      ['id', PAYMENT_ID],
      ['order_number', 'order-42'],
      ['order_amount', '10.50'],
      ['order_currency', 'USD'],
      ['order_description', 'Two tickets'],
      ['order_status', 'decline'],
      ['type', 'sale'],
      ['status', 'fail'],
      ['reason', 'Declined by issuer'],
      ['card', '411111******1111'],
      ['card_expiration_date', '01/2038'],
      ['customer_name', 'Ada Lovelace'],
      ['customer_email', 'ada@example.com'],
      ['customer_ip', '203.0.113.7'],
      ['date', '2024-05-01 10:00:01'],
      ['custom_data[basket]', 'B-7'],
      ['hash', sha1(md5(`${PAYMENT_ID}order-4210.50USDTwo tickets${PASSWORD}`.toUpperCase()))],
    ]);
  });

  it('a DMS authorization: recurring data when given, no reason on success', () => {
    const fields = new Map(
      checkoutCallbackFields(
        {
          id: PAYMENT_ID,
          orderNumber: 'o',
          orderAmount: '1.00',
          orderCurrency: 'EUR',
          orderDescription: 'd',
          orderStatus: 'pending',
          type: 'sale',
          status: 'success',
          reason: 'ignored',
          date: T2,
          recurringInitTransId: PAYMENT_ID,
          recurringToken: 'rt_1',
          scheduleId: 'f0e1d2c3-b4a5-4697-8888-999999999999',
        },
        PASSWORD,
      ),
    );
    expect(fields.has('reason')).to.equal(false);
    expect(fields.get('recurring_token')).to.equal('rt_1');
    expect(fields.get('schedule_id')).to.equal('f0e1d2c3-b4a5-4697-8888-999999999999');
    expect(fields.get('date')).to.equal('2024-05-01 10:05:00');
  });
});
