/**
 * S2S CARD `SALE` with a wallet (docs/reference/s2s-card.md#wallet-sale): `digital_wallet` + `payment_token`, signed with
 * Formula 8, paid in the card flow only: the token verified and decrypted, the card vaulted and paid
 * as the sandbox acquirer decides by its expiry (a DPAN's cryptogram standing in for 3-D Secure, a
 * PAN_ONLY card taking the ACS steps). Refusals: 204018 without the card flow or the wallet, 250003
 * for a token that cannot be trusted (altered, stale, early, expired, replayed, for another key).
 * Tokens are minted with the mint CLI's library at the gateway's test clock.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { orderIdHash, saleCardHash, walletSaleHash } from '../../src/domain/signatures';
import type { SandboxWalletMaterial } from '../../src/adapters/wallets/sandbox-trust';
import type { Wallet } from '../../src/domain/wallets/token-shape';
import { CallbackReceiver } from '../support/callback-receiver';
import { forEachStore, TRANS_DATE, UUID_RE, type Fields, type HttpResult, type TestClock, type TestMerchant } from '../support/gateway-harness';
import { WALLET_CARDS, giveWalletKeys, mintToken, sandboxWallets, walletSaleFields, type MintOptions, type WalletKeys } from '../support/wallet-payments';

const WALLETS: readonly Wallet[] = ['applepay', 'googlepay'];
const MASK = '411111******1111';
const MINUTE = 60_000;
const REFUSED_TOKEN = { result: 'ERROR', error_code: 250003, error_message: 'The payment token signature has expired' };
const NOT_SUPPORTED = { result: 'ERROR', error_code: 204018, error_message: 'Payment digital wallet not supported' };

/** One base64 character of the token's encrypted data changed (a different byte once decoded). */
function tamper(wallet: Wallet, token: string): string {
  const flip = (s: string) => {
    const i = Math.floor(s.replace(/=+$/, '').length / 2);
    return s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
  };
  const parsed = JSON.parse(token);
  if (wallet === 'applepay') {
    parsed.paymentData.data = flip(parsed.paymentData.data);
    return JSON.stringify(parsed);
  }
  const message = JSON.parse(parsed.signedMessage);
  message.encryptedMessage = flip(message.encryptedMessage);
  parsed.signedMessage = JSON.stringify(message);
  return JSON.stringify(parsed);
}

forEachStore('S2S CARD wallet SALE', (h) => {
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
    merchant = await h().createMerchant({
      notificationUrl: receiver.url,
      protocolMapping: { fields: ['card', 'wallet', 'checkout_payment_method'] },
    });
    keys = await giveWalletKeys(h(), merchant);
  });

  const mint = (wallet: Wallet, options: MintOptions = {}) => mintToken(h(), material, merchant, keys, wallet, options);
  const walletSale = (wallet: string, token: string, overrides: Fields = {}, who: TestMerchant = merchant): Promise<HttpResult> =>
    h().post(walletSaleFields(who, wallet, token, overrides));
  const status = async (transId: string) => (await h().status(merchant, transId)).body;

  for (const wallet of WALLETS) {
    describe(wallet, () => {
      it('Given a token for the settling card, When the SALE is sent, Then SUCCESS/SETTLED; the events hold the mask, the wallet and pan_type DPAN, never the number', async () => {
        const res = await walletSale(wallet, await mint(wallet));
        expect(res.status).to.equal(200);
        expect(res.body).to.include({ action: 'SALE', result: 'SUCCESS', status: 'SETTLED', amount: '10.50', currency: 'USD' });
        expect(res.body.trans_id).to.match(UUID_RE);
        expect(res.body.trans_date).to.match(TRANS_DATE);

        const events = await h().paymentEvents(res.body.trans_id);
        expect(events.map((e) => e.type)).to.deep.equal(['PaymentInitiated', 'PaymentSettled']);
        expect(events[0].data.card).to.include({ mask: MASK, wallet, panType: 'DPAN' });
        expect(JSON.stringify(events.map((e) => [e.data, e.metadata]))).not.to.include(WALLET_CARDS.settles.pan);
      });

      it('Given a settled wallet payment, Then its status and callback carry digital_wallet, pan_type and the mask, never the number', async () => {
        const res = await walletSale(wallet, await mint(wallet));
        const answer = await status(res.body.trans_id);
        expect(answer).to.include({ status: 'SETTLED', card: MASK, digital_wallet: wallet, pan_type: 'DPAN', checkout_payment_method: wallet });
        await h().gateway.notifier.catchUp();
        const callbacks = receiver.ofTransaction(res.body.trans_id);
        expect(callbacks).to.have.length(1);
        expect(Object.fromEntries(callbacks[0].fields)).to.include({ status: 'SETTLED', card: MASK, digital_wallet: wallet, pan_type: 'DPAN' });
        expect(callbacks[0].body).not.to.include(WALLET_CARDS.settles.pan);
        await h().gateway.readModels.catchUpToHead();
        const row = await h().gateway.readModels.paymentById(res.body.trans_id);
        expect(JSON.stringify(row)).not.to.include(WALLET_CARDS.settles.pan);
      });

      it('Given a token for the declining card (02/2038), Then DECLINED/DECLINED with the acquirer\'s reason', async () => {
        const res = await walletSale(wallet, await mint(wallet, { card: WALLET_CARDS.declines }));
        expect(res.body).to.include({ result: 'DECLINED', status: 'DECLINED' });
        expect(res.body.decline_reason).to.be.a('string').and.not.be.empty;
      });

      it('Given a DPAN token of the 3-D Secure cards, Then its cryptogram decides without the ACS: 05/2038 settles, 06/2038 declines', async () => {
        const ok = await walletSale(wallet, await mint(wallet, { card: WALLET_CARDS.threeDsSuccess }));
        expect(ok.body).to.include({ result: 'SUCCESS', status: 'SETTLED' });
        const no = await walletSale(wallet, await mint(wallet, { card: WALLET_CARDS.threeDsDeclined }));
        expect(no.body).to.include({ result: 'DECLINED', status: 'DECLINED' });
      });

      it('Given auth=Y, Then the card flow holds (SUCCESS/PENDING) and CAPTURE settles it', async () => {
        const held = await walletSale(wallet, await mint(wallet), { auth: 'Y' });
        expect(held.body).to.include({ result: 'SUCCESS', status: 'PENDING' });
        const captured = await h().capture(merchant, held.body.trans_id);
        expect(captured.body).to.include({ result: 'SUCCESS', status: 'SETTLED' });
      });

      it('Given recurring_init=Y, Then the chain starts on the decrypted card and RECURRING_SALE charges it without the payer', async () => {
        const first = await walletSale(wallet, await mint(wallet), { recurring_init: 'Y' });
        expect(first.body).to.include({ result: 'SUCCESS', status: 'SETTLED' });
        expect(first.body.recurring_token).to.be.a('string').and.not.be.empty;
        const orderId = `rec-${randomUUID()}`;
        const charged = await h().post({
          action: 'RECURRING_SALE',
          client_key: merchant.client_key,
          order_id: orderId,
          order_amount: '7.25',
          order_description: 'Monthly box',
          recurring_first_trans_id: first.body.trans_id,
          recurring_token: first.body.recurring_token,
          hash: orderIdHash(orderId, merchant.password),
        });
        expect(charged.body).to.include({ action: 'RECURRING_SALE', result: 'SUCCESS', status: 'SETTLED' });
        expect((await status(charged.body.trans_id))).to.include({ card: MASK });
      });

      it('Given a wrong hash (Formula 1 over the card, or Formula 8 with another password), Then 100000 Hash is not valid and nothing is paid', async () => {
        const token = await mint(wallet);
        const fields = walletSaleFields(merchant, wallet, token);
        const formula1 = await walletSale(wallet, token, { hash: saleCardHash({ payerEmail: fields.payer_email, password: merchant.password, cardNumber: WALLET_CARDS.settles.pan }) });
        expect(formula1.body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'Hash is not valid' });
        const otherPassword = await walletSale(wallet, token, { order_id: fields.order_id, hash: walletSaleHash({ payerEmail: fields.payer_email, password: 'another' }) });
        expect(otherPassword.body.error_message).to.equal('Hash is not valid');
        expect(await h().initiatedForOrder(merchant, fields.order_id!)).to.deep.equal([]);
        // The token was not used up by the refused requests.
        expect((await h().post(fields)).body).to.include({ result: 'SUCCESS', status: 'SETTLED' });
      });

      describe('250003 The payment token signature has expired', () => {
        it('Given a token with one byte of its encrypted data altered, Then 250003', async () => {
          expect((await walletSale(wallet, tamper(wallet, await mint(wallet)))).body).to.deep.equal(REFUSED_TOKEN);
        });

        it('Given a token for a key the merchant does not hold, Then 250003', async () => {
          expect((await walletSale(wallet, await mint(wallet, { foreignKey: true }))).body).to.deep.equal(REFUSED_TOKEN);
        });

        it('Given a token used once, When it is sent again for another order, Then 250003; the same order within the window gets the original answer', async () => {
          const token = await mint(wallet);
          const first = await walletSale(wallet, token);
          expect(first.body.status).to.equal('SETTLED');
          expect((await walletSale(wallet, token)).body).to.deep.equal(REFUSED_TOKEN);
          const again = await h().post(walletSaleFields(merchant, wallet, token, { order_id: (await h().paymentEvents(first.body.trans_id))[0].data.orderId as string }));
          expect(again.body).to.include({ trans_id: first.body.trans_id, status: 'SETTLED' });
        });
      });
    });
  }

  describe('routing', () => {
    it('Given a merchant routed to sandbox-b first, which takes no decrypted wallet cards, Then the card-flow payment goes straight to the sandbox', async () => {
      const routed = await h().createMerchant({ connectors: ['sandbox-b', 'sandbox'] });
      const routedKeys = await giveWalletKeys(h(), routed);
      const res = await walletSale('googlepay', await mintToken(h(), material, routed, routedKeys, 'googlepay'), {}, routed);
      expect(res.body, res.text).to.include({ result: 'SUCCESS', status: 'SETTLED' });
      const events = await h().paymentEvents(res.body.trans_id);
      expect(events.map((e) => e.type)).to.deep.equal(['PaymentInitiated', 'PaymentSettled']);
      const initiated = events[0]!.data as { connector: string; route?: string[] };
      expect(initiated.connector).to.equal('sandbox');
      // A route is recorded only when more than one connector could take the payment.
      expect(initiated.route ?? ['sandbox']).to.deep.equal(['sandbox']);
    });
  });

  describe('freshness, against the gateway\'s clock', () => {
    it('Given an Apple Pay token signed 5 minutes ago it pays; 5 minutes and 1 second ago, or 61 seconds ahead, 250003', async () => {
      // The boundaries are a second wide: the gateway's clock stands still while the test runs, however slow the machine.
      const clock = h().clock as TestClock;
      clock.freeze();
      try {
        const now = clock.now().getTime();
        // Whole seconds: the signing time (UTCTime) has none smaller.
        const ok = await walletSale('applepay', await mint('applepay', { signedAt: new Date(Math.ceil(now / 1000) * 1000 - 5 * MINUTE) }));
        expect(ok.body.status).to.equal('SETTLED');
        expect((await walletSale('applepay', await mint('applepay', { signedAt: new Date(now - 5 * MINUTE - 1000) }))).body).to.deep.equal(REFUSED_TOKEN);
        expect((await walletSale('applepay', await mint('applepay', { signedAt: new Date(now + 61_000) }))).body).to.deep.equal(REFUSED_TOKEN);
      } finally {
        clock.resume();
      }
    });

    it('Given a Google Pay token whose message and key expired (signed 8 days ago), Then 250003', async () => {
      const signedAt = new Date(h().clock.now().getTime() - 8 * 24 * 60 * MINUTE);
      expect((await walletSale('googlepay', await mint('googlepay', { signedAt }))).body).to.deep.equal(REFUSED_TOKEN);
    });
  });

  describe('3-D Secure of a PAN_ONLY card', () => {
    it('Given a Google Pay PAN_ONLY token of 05/2038, Then REDIRECT/3DS; approving at the ACS settles it, pan_type FPAN', async () => {
      const res = await walletSale('googlepay', await mint('googlepay', { authMethod: 'PAN_ONLY', card: WALLET_CARDS.threeDsSuccess }));
      expect(res.body).to.include({ result: 'REDIRECT', status: '3DS' });
      const params = res.body.redirect_params as Record<string, string>;
      await h().postForm(params.TermUrl, { PaRes: 'approve', PaReq: params.PaReq, MD: params.MD });
      expect(await status(res.body.trans_id)).to.include({ status: 'SETTLED', digital_wallet: 'googlepay', pan_type: 'FPAN', card: '555555******4444' });
    });

    it('Given a Google Pay PAN_ONLY token of 06/2038, When the payer passes the ACS, Then it is declined', async () => {
      const res = await walletSale('googlepay', await mint('googlepay', { authMethod: 'PAN_ONLY', card: WALLET_CARDS.threeDsDeclined }));
      expect(res.body).to.include({ result: 'REDIRECT', status: '3DS' });
      const params = res.body.redirect_params as Record<string, string>;
      await h().postForm(params.TermUrl, { PaRes: 'approve', PaReq: params.PaReq, MD: params.MD });
      expect((await status(res.body.trans_id)).status).to.equal('DECLINED');
    });
  });

  describe('204018 Payment digital wallet not supported', () => {
    it('Given a merchant without the wallet\'s keys (virtual flow only), Then 204018: S2S CARD takes the card flow only', async () => {
      const noKeys = await h().createMerchant();
      const appleOnly = await h().createMerchant();
      await giveWalletKeys(h(), appleOnly, ['applepay']);
      expect((await walletSale('applepay', await mint('applepay'), {}, noKeys)).body).to.deep.equal(NOT_SUPPORTED);
      expect((await walletSale('googlepay', await mint('googlepay'), {}, appleOnly)).body).to.deep.equal(NOT_SUPPORTED);
    });

    it('Given keys but no connector of the merchant that takes decrypted wallet cards, Then 204018', async () => {
      const virtualOnly = await h().createMerchant({ connectors: ['sandbox-wallet'] });
      const own = await giveWalletKeys(h(), virtualOnly);
      const token = await mintToken(h(), material, virtualOnly, own, 'applepay');
      expect((await walletSale('applepay', token, {}, virtualOnly)).body).to.deep.equal(NOT_SUPPORTED);
    });

    it('Given a wallet the merchant\'s methods leave out, or a wallet the gateway does not know, Then 204018 after the hash', async () => {
      await h().gateway.merchants.update(merchant.merchant_id, { methods: ['applepay'] });
      expect((await walletSale('googlepay', await mint('googlepay'))).body).to.deep.equal(NOT_SUPPORTED);
      expect((await walletSale('applepay', await mint('applepay'))).body.status).to.equal('SETTLED');
      expect((await walletSale('samsungpay', '{"token":"x"}')).body).to.deep.equal(NOT_SUPPORTED);
      expect((await walletSale('samsungpay', '{"token":"x"}', { hash: 'f'.repeat(32) })).body.error_message).to.equal('Hash is not valid');
    });
  });

  describe('request data', () => {
    it('Given a token of neither shape, or card data beside the token, or the token without digital_wallet, Then 100000 with the field named', async () => {
      const odd = await walletSale('applepay', '{"hello":"world"}');
      expect(odd.body).to.deep.equal({
        result: 'ERROR',
        error_code: 100000,
        error_message: 'Request data is invalid.',
        errors: [{ error_code: 100000, error_message: 'payment_token: This value is not a valid payment token of its wallet.' }],
      });
      const both = await walletSale('applepay', await mint('applepay'), { card_number: '4111111111111111' });
      expect(both.body.errors).to.deep.include({ error_code: 100000, error_message: 'payment_token: Send either card data or payment_token, not both.' });
      const noWallet = await walletSale('applepay', await mint('applepay'), { digital_wallet: undefined });
      expect(noWallet.body.errors).to.deep.include({ error_code: 100000, error_message: 'digital_wallet: This value should not be blank.' });
    });
  });
});

forEachStore('S2S CARD wallet SALE: freshness by the gateway\'s clock', (h) => {
  it('Given tokens made now, When the gateway\'s clock moves on, Then Apple Pay\'s goes stale after 5 minutes and Google Pay\'s when its message expires', async () => {
    const material = await sandboxWallets(h());
    const merchant = await h().createMerchant();
    const keys = await giveWalletKeys(h(), merchant);
    const apple = [await mintToken(h(), material, merchant, keys, 'applepay'), await mintToken(h(), material, merchant, keys, 'applepay')];
    const google = [await mintToken(h(), material, merchant, keys, 'googlepay'), await mintToken(h(), material, merchant, keys, 'googlepay')];
    const clock = h().clock as TestClock;
    clock.advance(4 * MINUTE);
    expect((await h().post(walletSaleFields(merchant, 'applepay', apple[0]))).body.status).to.equal('SETTLED');
    clock.advance(MINUTE + 2000);
    expect((await h().post(walletSaleFields(merchant, 'applepay', apple[1]))).body).to.deep.equal(REFUSED_TOKEN);
    expect((await h().post(walletSaleFields(merchant, 'googlepay', google[0]))).body.status).to.equal('SETTLED');
    clock.advance(7 * 24 * 60 * MINUTE);
    expect((await h().post(walletSaleFields(merchant, 'googlepay', google[1]))).body).to.deep.equal(REFUSED_TOKEN);
  });
});
