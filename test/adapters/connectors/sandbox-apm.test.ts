/**
 * The sandbox APM provider beyond the connector contract: each flow's answer (page, QR code with
 * its lifetime, pending with a crypto address), the QR payload, its notifications' vocabularies,
 * and every catalogue method's parameters checked exactly (docs/reference/s2s-apm.md#sandbox-methods; the spec's catalogue).
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { SandboxApmConnector, SANDBOX_METHOD_IDS, sandboxMethod } from '../../../src/adapters/connectors/sandbox-apm';
import { crc16, notificationStatus, qrPayload, signNotification } from '../../../src/adapters/connectors/sandbox-apm/transformers';
import type { PaymentRequest } from '../../../src/application/ports/connector';
import { fieldsToCollect, methodParameterProblems } from '../../../src/domain/payment/method-fields';

const NOW = new Date('2025-03-01T12:00:00.000Z');
const PAYMENT_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const secret = randomBytes(32);
const connector = new SandboxApmConnector({ secret, simulatorBaseUrl: 'https://gw.test/', now: () => NOW });

const ask = (method: string, parameters: Record<string, unknown> = {}, over: Partial<PaymentRequest> = {}): PaymentRequest => ({
  paymentId: PAYMENT_ID,
  merchantId: 'm',
  kind: 'sale',
  amount: 1050,
  currency: 'USD',
  instrument: { kind: 'method', method, parameters, identifier: 'payer-1' },
  returnUrl: `https://gw.test/payments/${PAYMENT_ID}/3ds-return`,
  ...over,
});

const problems = (method: string, parameters: Record<string, unknown> | null, payer = {}) => methodParameterProblems(sandboxMethod(method)!, parameters, payer);

describe('sandbox APM provider', () => {
  describe('flows', () => {
    it('Given the payer email success@gmail.com (else the identifier), Then it settles at once; fail@gmail.com is declined; the email wins over the identifier', async () => {
      expect(await connector.authorize(ask('sb-qr', {}, { payerEmail: 'Success@Gmail.com' }))).to.include({ outcome: 'success', descriptor: 'SANDBOX*APM' });
      const byIdentifier = ask('sb-app');
      byIdentifier.instrument = { kind: 'method', method: 'sb-app', parameters: {}, identifier: 'fail@gmail.com' };
      expect(await connector.authorize(byIdentifier)).to.include({ outcome: 'declined', reason: 'Declined by the payment provider' });
      byIdentifier.payerEmail = 'someone@example.test';
      expect(await connector.authorize(byIdentifier)).to.include({ outcome: 'pending' });
    });

    it('Given a redirect method (and its alias vcard), Then a GET link to the provider page that names its way back', async () => {
      for (const id of ['sb-redirect', 'vcard', 'sb-otp', 'sb-bank']) {
        const answer = await connector.authorize(ask(id, id === 'sb-bank' ? { bank_code: '001', bank_account_number: '12345' } : {}));
        if (answer.outcome !== 'redirect') throw new Error(JSON.stringify(answer));
        expect(answer.redirect).to.include({ kind: 'redirect', method: 'GET' });
        expect(answer.redirect.url).to.match(new RegExp(`^https://gw\\.test/sandbox/provider/${PAYMENT_ID}\\?return=.*&sig=`));
        expect(answer.redirect.display).to.equal(undefined);
      }
    });

    it('Given sb-qr, Then the page shows a QR code: its EMVCo payload in Base64, living 60 seconds', async () => {
      const answer = await connector.authorize(ask('sb-qr'));
      if (answer.outcome !== 'redirect') throw new Error(JSON.stringify(answer));
      expect(answer.redirect.display).to.equal('qr');
      expect(answer.redirect.expiresAt).to.equal('2025-03-01T12:01:00.000Z');
      const payload = Buffer.from(answer.redirect.qrCode!, 'base64').toString('utf8');
      expect(payload).to.match(/^000201010212/);
      expect(payload).to.contain('5303840').and.contain('540510.50');
      expect(payload.slice(-4)).to.equal(crc16(payload.slice(0, -4)));
    });

    it('Given an app method, Then it is accepted and waits; a crypto deposit names its address and network', async () => {
      expect(await connector.authorize(ask('sb-upi', { upi_id: 'ada@okbank' }))).to.include({ outcome: 'pending' });
      const usdt = await connector.authorize(ask('sb-crypto', { crypto_type: 'USDT', network_type: 'tron' }));
      if (usdt.outcome !== 'pending') throw new Error(JSON.stringify(usdt));
      expect(usdt.instructions!.crypto_network).to.equal('tron');
      expect(usdt.instructions!.crypto_address).to.match(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
      const btc = await connector.authorize(ask('sb-crypto', { crypto_type: 'BTC', bech32: 'true' }));
      expect(btc.outcome === 'pending' && btc.instructions).to.deep.include({ crypto_network: 'btc' });
    });

    it('Given the CRC of the standard check string, Then it is CRC-16/CCITT-FALSE (29B1)', () => {
      expect(crc16('123456789')).to.equal('29B1');
      expect(qrPayload({ reference: 'r', paymentId: PAYMENT_ID, amountText: '1', currency: 'ZZZ', merchantName: 'M' })).to.contain('5303999');
    });
  });

  describe('notifications', () => {
    it('Given each vocabulary (QR executed/rejected, bank ACSC/RJCT, approved/declined), Then it reads as a decision; pending waits', async () => {
      for (const [status, outcome] of [
        ['executed', 'success'],
        ['rejected', 'declined'],
        ['ACSC', 'success'],
        ['RJCT', 'declined'],
        ['approved', 'success'],
        ['declined', 'declined'],
        ['pending', 'pending'],
      ] as const) {
        const told = await connector.parseNotification(signNotification(secret, { paymentId: PAYMENT_ID, reference: 'sbapm_qr_0011223344556677', status }, 1_700_000_000));
        expect(told.verified && told.outcome.outcome, status).to.equal(outcome);
      }
      expect(notificationStatus('qr', 'approve')).to.equal('executed');
      expect(notificationStatus('bank', 'decline')).to.equal('RJCT');
    });

    it('Given a notification signed with another secret, Then it is not verified', async () => {
      const forged = signNotification(randomBytes(32), { paymentId: PAYMENT_ID, reference: 'r', status: 'executed' }, 1_700_000_000);
      expect(await connector.parseNotification(forged)).to.deep.equal({ verified: false });
    });
  });

  describe('catalogue', () => {
    it('Given the identifiers of docs/reference/s2s-apm.md#sandbox-methods, Then each is a method of the sandbox, with vcard an alias of sb-redirect', () => {
      expect(SANDBOX_METHOD_IDS).to.have.members([
        'sb-redirect', 'vcard', 'sb-qr', 'sb-app', 'sb-otp', 'sb-details', 'sb-crypto', 'sb-bank', 'sb-document', 'sb-installment', 'sb-member',
        'sb-identity', 'sb-upi', 'sb-trading-deposit', 'sb-trading-withdrawal', 'sb-crypto-convert', 'sb-crypto-buy', 'sb-country-id', 'sb-bank-pull',
      ]);
      expect(sandboxMethod('vcard')).to.include({ method: 'vcard', flow: 'redirect' });
      expect(sandboxMethod('sb-unknown')).to.equal(null);
    });

    it('Given methods that only redirect, Then they take no parameters: any is not expected', () => {
      for (const id of ['sb-redirect', 'vcard', 'sb-qr', 'sb-app', 'sb-details']) {
        expect(problems(id, null), id).to.deep.equal([]);
        expect(problems(id, { extra: 'x' }), id).to.deep.equal(['parameters[extra]: This field was not expected.']);
      }
    });

    it('Given the crypto deposit, Then crypto_type is required, network_type only eth|tron and only for USDT, bech32 a boolean', () => {
      expect(problems('sb-crypto', {})).to.deep.equal(['parameters[crypto_type]: This value should not be blank.']);
      expect(problems('sb-crypto', { crypto_type: 'USDT', network_type: 'tron', bech32: 'false', accountId: 'a1' })).to.deep.equal([]);
      expect(problems('sb-crypto', { crypto_type: 'BTC', network_type: 'eth' })).to.deep.equal(['parameters[network_type]: This value is only allowed when crypto_type is USDT.']);
      expect(problems('sb-crypto', { crypto_type: 'USDT', network_type: 'btc', bech32: 'yes' })).to.deep.equal([
        'parameters[network_type]: The value you selected is not a valid choice. Allowed: eth, tron.',
        'parameters[bech32]: This value should be true or false.',
      ]);
    });

    it('Given the bank-account, UPI, trading, conversion and purchase methods, Then their required fields are required', () => {
      expect(problems('sb-bank', { bank_code: '001' })).to.deep.equal(['parameters[bank_account_number]: This value should not be blank.']);
      expect(problems('sb-upi', {})).to.deep.equal(['parameters[upi_id]: This value should not be blank.']);
      expect(problems('sb-upi', { upi_id: 'not an id' })).to.deep.equal(['parameters[upi_id]: This value is not valid.']);
      expect(problems('sb-trading-deposit', { paymentGatewayName: 'g' })).to.deep.equal(['parameters[paymentCurrency]: This value should not be blank.']);
      expect(problems('sb-trading-withdrawal', { withdrawCurrency: 'USDT', address: 'addr', tradingAccountLogin: '7' })).to.deep.equal([]);
      expect(problems('sb-crypto-convert', { toCurrency: 'XYZ' })).to.deep.equal(['parameters[toCurrency]: This value is not a valid currency.']);
      expect(problems('sb-crypto-buy', {})).to.deep.equal(['parameters[cryptoCurrency]: This value should not be blank.']);
    });

    it('Given the installment product, Then reference (max 64), name and quantity (digits, max 4) are required and URLs are URLs', () => {
      const ok = { product_reference_id: 'p-1', product_name: 'Sofa', product_quantity: '2' };
      expect(problems('sb-installment', ok)).to.deep.equal([]);
      expect(problems('sb-installment', { ...ok, product_reference_id: 'x'.repeat(65), product_quantity: '12345', product_url: 'nope' })).to.deep.equal([
        'parameters[product_reference_id]: This value is too long. It should have 64 characters or less.',
        'parameters[product_quantity]: This value is too long. It should have 4 characters or less.',
        'parameters[product_url]: This value is not a valid URL.',
      ]);
    });

    it('Given fields collected from the payer when absent, Then leaving them out is fine and the page asks for them', () => {
      expect(problems('sb-document', {})).to.deep.equal([]);
      expect(fieldsToCollect(sandboxMethod('sb-document')!, { document_type: 'passport' }).map((f) => f.name)).to.deep.equal(['document_number']);
      expect(fieldsToCollect(sandboxMethod('sb-member')!, null).map((f) => f.name)).to.deep.equal(['memberId']);
      expect(fieldsToCollect(sandboxMethod('sb-identity')!, null, { country: 'IN' }).map((f) => f.name)).to.deep.equal(['personal_id']);
      expect(fieldsToCollect(sandboxMethod('sb-identity')!, null, { country: 'DE' })).to.deep.equal([]);
      expect(fieldsToCollect(sandboxMethod('sb-country-id')!, null, { country: 'MX' }).map((f) => f.name)).to.deep.equal(['bank_curp']);
      expect(problems('sb-country-id', { bank_cuil: '20-12345678-3' })).to.deep.equal([]);
      expect(problems('sb-country-id', { bank_curp: 'not-a-curp' })).to.deep.equal(['parameters[bank_curp]: This value is not valid.']);
      expect(fieldsToCollect(sandboxMethod('sb-otp')!, null, { phone: '+441234567890' })).to.deep.equal([]);
      expect(fieldsToCollect(sandboxMethod('sb-otp')!, null).map((f) => f.name)).to.deep.equal(['phone']);
    });

    it('Given the bank pull, Then its top-level fields are required and bankDetails is cbu and alias, or phoneNumber and otp', () => {
      const full = {
        amount: '10.50',
        expiryDate: '2025-03-02T12:00:00Z',
        callbackUrl: 'https://shop.test/pull',
        reference: 'ref-8',
        merchantType: 'retail',
        merchantName: 'Shop',
        accountId: 'acc-1',
        market: 'AR',
        type: 'PULL',
        currency: 'ARS',
      };
      expect(problems('sb-bank-pull', full)).to.deep.equal([]);
      expect(problems('sb-bank-pull', { ...full, type: 'PUSH', bankDetails: { cbu: '0170099220000067797370' } })).to.deep.equal([
        'parameters[type]: The value you selected is not a valid choice. Allowed: PULL.',
        'parameters[bankDetails]: Send cbu and alias, or phoneNumber and otp.',
      ]);
      expect(problems('sb-bank-pull', { ...full, bankDetails: { phoneNumber: '+5491122334455', otp: '1234' } })).to.deep.equal([]);
      expect(problems('sb-bank-pull', { ...full, bankDetails: { iban: 'x' } })).to.include('parameters[bankDetails][iban]: This field was not expected.');
      expect(problems('sb-bank-pull', {})).to.have.length(10);
    });
  });
});
