/**
 * S2S APM `SALE` with a wallet brand (`applepay`, `googlepay`) and `parameters[paymentToken]`
 * (docs/wallets.md#s2s-apm): the card flow when the merchant has the wallet's keys and a connector
 * taking decrypted wallet cards (holds allowed, captured or released with the APM follow-ups),
 * else the virtual flow through the sandbox's wallet provider (no holds, nothing of the token kept);
 * neither: 204018. The token is never recorded as a parameter of the payment.
 */
import { expect } from 'chai';
import type { SandboxWalletMaterial } from '../../src/adapters/wallets/sandbox-trust';
import type { Wallet } from '../../src/domain/wallets/token-shape';
import { apmByTransId, apmCreditVoid, apmSale, RETURN_URL } from '../support/apm-client';
import { CallbackReceiver } from '../support/callback-receiver';
import { forEachStore, type Fields, type TestMerchant } from '../support/gateway-harness';
import { WALLET_CARDS, giveWalletKeys, mintToken, sandboxWallets, type MintOptions, type WalletKeys } from '../support/wallet-payments';

const WALLETS: readonly Wallet[] = ['applepay', 'googlepay'];
const MASK = '411111******1111';

const signatureOf = (wallet: Wallet, token: string): string => (wallet === 'applepay' ? JSON.parse(token).paymentData.signature : JSON.parse(token).signature);

/** The token with the first character of its signature changed (the rest byte for byte as minted). */
function alterSignature(wallet: Wallet, token: string): string {
  const flip = (s: string) => (s[0] === 'M' ? 'N' : 'M') + s.slice(1);
  const parsed = JSON.parse(token);
  if (wallet === 'applepay') parsed.paymentData.signature = flip(parsed.paymentData.signature);
  else parsed.signature = flip(parsed.signature);
  return JSON.stringify(parsed);
}

forEachStore('S2S APM wallet SALE', (h) => {
  let material: SandboxWalletMaterial;
  const receiver = new CallbackReceiver();
  let merchant: TestMerchant;
  let keys: WalletKeys;

  before(async () => {
    material = await sandboxWallets(h());
    await receiver.start();
    await h().gateway.notifier.start();
  });
  after(async () => {
    await receiver.stop();
  });
  beforeEach(async () => {
    merchant = await h().createMerchant({ notificationUrl: receiver.url, protocolMapping: { fields: ['wallet', 'checkout_payment_method'] } });
  });

  const mint = (wallet: Wallet, options: MintOptions = {}, who: TestMerchant = merchant, whose: WalletKeys = keys) => mintToken(h(), material, who, whose, wallet, options);
  const walletApmSale = (wallet: Wallet, token: string | undefined, overrides: Fields = {}, who: TestMerchant = merchant) =>
    apmSale(h(), who, { brand: wallet, 'parameters[paymentToken]': token, ...overrides });
  const status = async (transId: string, who: TestMerchant = merchant) => (await apmByTransId(h(), 'GET_TRANS_STATUS', who, transId)).body;

  describe('card flow (the merchant has the wallet\'s keys)', () => {
    beforeEach(async () => {
      keys = await giveWalletKeys(h(), merchant);
    });

    for (const wallet of WALLETS) {
      it(`Given a ${wallet} token for the settling card, Then SUCCESS/SETTLED in APM's shape; the payment holds the mask and DPAN, its method no token`, async () => {
        const token = await mint(wallet);
        const res = await walletApmSale(wallet, token);
        expect(Object.keys(res.body)).to.deep.equal(['action', 'result', 'status', 'order_id', 'trans_id', 'trans_date', 'amount', 'currency']);
        expect(res.body).to.include({ action: 'SALE', result: 'SUCCESS', status: 'SETTLED', amount: '10.00' });
        const [initiated] = await h().paymentEvents(res.body.trans_id);
        expect(initiated.data).to.include({ channel: 's2s_apm', connector: 'sandbox' });
        expect(initiated.data.card).to.include({ mask: MASK, wallet, panType: 'DPAN' });
        expect(initiated.data.method).to.deep.equal({ brand: wallet, parameters: {}, identifier: 'payer-42', returnUrl: RETURN_URL });
        expect(JSON.stringify(initiated.data)).not.to.include(WALLET_CARDS.settles.pan).and.not.to.include(signatureOf(wallet, token));
        expect(await status(res.body.trans_id)).to.include({ status: 'SETTLED', digital_wallet: wallet, pan_type: 'DPAN', checkout_payment_method: wallet });
      });

      it(`Given a ${wallet} token for the declining card, Then DECLINED/DECLINED`, async () => {
        const res = await walletApmSale(wallet, await mint(wallet, { card: WALLET_CARDS.declines }));
        expect(res.body).to.include({ result: 'DECLINED', status: 'DECLINED' });
      });

      it(`Given auth=Y with a ${wallet} token, Then SUCCESS/PENDING; CAPTURE settles one hold, CREDITVOID releases another (REVERSAL), VOID is not how a hold is released`, async () => {
        const held = await walletApmSale(wallet, await mint(wallet), { auth: 'Y' });
        expect(held.body).to.include({ result: 'SUCCESS', status: 'PENDING' });
        const captured = await apmByTransId(h(), 'CAPTURE', merchant, held.body.trans_id, { amount: '6.00' });
        expect(captured.body).to.include({ action: 'CAPTURE', result: 'SUCCESS', status: 'SETTLED', amount: '6.00' });
        const other = await walletApmSale(wallet, await mint(wallet), { auth: 'Y' });
        expect((await apmCreditVoid(h(), merchant, other.body.trans_id)).body.result).to.equal('ACCEPTED');
        expect((await status(other.body.trans_id)).status).to.equal('REVERSAL');
        const third = await walletApmSale(wallet, await mint(wallet), { auth: 'Y' });
        expect((await apmByTransId(h(), 'VOID', merchant, third.body.trans_id)).body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'Void is not allowed.' });
      });

      it(`Given a ${wallet} token altered, replayed, or for another key, Then 250003`, async () => {
        const refused = { result: 'ERROR', error_code: 250003, error_message: 'The payment token signature has expired' };
        const token = await mint(wallet);
        const altered = alterSignature(wallet, token);
        expect((await walletApmSale(wallet, altered)).body).to.deep.equal(refused);
        expect((await walletApmSale(wallet, token)).body.status).to.equal('SETTLED');
        expect((await walletApmSale(wallet, token)).body).to.deep.equal(refused);
        expect((await walletApmSale(wallet, await mint(wallet, { foreignKey: true }))).body).to.deep.equal(refused);
      });
    }

    it('Given a Google Pay PAN_ONLY token of 05/2038, Then the payer is sent to the ACS; approving there settles it, pan_type FPAN', async () => {
      const res = await walletApmSale('googlepay', await mint('googlepay', { authMethod: 'PAN_ONLY', card: WALLET_CARDS.threeDsSuccess }));
      expect(res.body).to.include({ result: 'REDIRECT' });
      expect(res.body.redirect_url).to.be.a('string');
      const [, challenge] = await h().paymentEvents(res.body.trans_id);
      const params = challenge.data.params as Record<string, string>;
      const back = await h().postForm(params.TermUrl, { PaRes: 'approve', PaReq: params.PaReq, MD: params.MD });
      expect(back.status).to.equal(303);
      expect(await status(res.body.trans_id)).to.include({ status: 'SETTLED', digital_wallet: 'googlepay', pan_type: 'FPAN' });
    });
  });

  describe('virtual flow (no keys: the sandbox\'s wallet provider takes the token undecrypted)', () => {
    for (const wallet of WALLETS) {
      it(`Given a ${wallet} token and payer success@gmail.com, Then SUCCESS/SETTLED through sandbox-wallet; no card, no pan_type, nothing of the token kept`, async () => {
        const other = await h().createMerchant();
        const token = await mint(wallet, {}, other, await giveWalletKeys(h(), other));
        const res = await walletApmSale(wallet, token, { payer_email: 'success@gmail.com' });
        expect(res.body).to.include({ result: 'SUCCESS', status: 'SETTLED' });
        const events = await h().paymentEvents(res.body.trans_id);
        expect(events[0].data).to.include({ channel: 's2s_apm', connector: 'sandbox-wallet' });
        expect(events[0].data).not.to.have.property('card');
        expect(events[0].data.method).to.deep.equal({ brand: wallet, parameters: {}, identifier: 'payer-42', returnUrl: RETURN_URL });
        expect(JSON.stringify(events.map((e) => e.data))).not.to.include(signatureOf(wallet, token));
        const answer = await status(res.body.trans_id);
        expect(answer).to.include({ status: 'SETTLED', digital_wallet: wallet, checkout_payment_method: wallet });
        expect(answer).not.to.have.property('pan_type');
        await h().gateway.notifier.catchUp();
        const [callback] = receiver.ofTransaction(res.body.trans_id);
        expect(callback.fields.get('digital_wallet')).to.equal(wallet);
        expect(callback.fields.get('pan_type')).to.equal('');
      });

      it(`Given a ${wallet} token and identifier fail@gmail.com, Then DECLINED; with auth=Y, 204005 (the virtual flow holds nothing)`, async () => {
        const other = await h().createMerchant();
        const token = await mint(wallet, {}, other, await giveWalletKeys(h(), other));
        expect((await walletApmSale(wallet, token, { identifier: 'fail@gmail.com' })).body).to.include({ result: 'DECLINED', status: 'DECLINED' });
        expect((await walletApmSale(wallet, token, { auth: 'Y' })).body).to.deep.equal({ result: 'ERROR', error_code: 204005, error_message: 'Payment action not supported' });
      });
    }
  });

  describe('refusals', () => {
    it('Given no flow for the wallet (no keys and no connector offering it), Then 204018; a wallet left out of methods, 204006', async () => {
      const cardsOnly = await h().createMerchant({ connectors: ['sandbox'] });
      const other = await h().createMerchant();
      const token = await mint('applepay', {}, other, await giveWalletKeys(h(), other));
      expect((await walletApmSale('applepay', token, {}, cardsOnly)).body).to.deep.equal({ result: 'ERROR', error_code: 204018, error_message: 'Payment digital wallet not supported' });
      await h().gateway.merchants.update(merchant.merchant_id, { methods: ['googlepay'] });
      expect((await walletApmSale('applepay', token)).body).to.deep.equal({ result: 'ERROR', error_code: 204006, error_message: 'Payment system/brand not supported.' });
    });

    it('Given no token, a token of neither shape or another parameter, Then 100000 naming parameters[...]', async () => {
      const missing = await walletApmSale('applepay', undefined);
      expect(missing.body.errors).to.deep.equal([{ error_code: 100000, error_message: 'parameters[paymentToken]: This value should not be blank.' }]);
      const odd = await walletApmSale('googlepay', '{"protocolVersion":"ECv1"}');
      expect(odd.body.errors).to.deep.equal([{ error_code: 100000, error_message: 'parameters[paymentToken]: This value is not a valid payment token of its wallet.' }]);
      const extra = await walletApmSale('googlepay', '{"a":1}', { 'parameters[colour]': 'blue' });
      expect(extra.body.errors).to.deep.include({ error_code: 100000, error_message: 'parameters[colour]: This field was not expected.' });
    });
  });
});
