/**
 * What the dashboard tells an operator about each payment, whatever its channel: the full trans id
 * (copyable), the method or card it was made with, and its kind, so a payout never reads as a sale;
 * the method filter finds APM payments and payouts; and the analytics page draws no chart of
 * settled money for a currency in which nothing settled, while its balances show the top-up that
 * funded the payouts.
 */
import { expect } from 'chai';
import { allProjectionNames } from '../../projections';
import { apmSale } from '../support/apm-client';
import { startTestGateway, type TestGateway, type TestMerchant } from '../support/gateway-harness';
import { payout, topUp } from '../support/payout-client';

describe('Dashboard: payments of every channel', function () {
  let t: TestGateway;
  let merchant: TestMerchant;
  let cookie: string;
  const ids = { card: '', apm: '', payout: '' };

  before(async () => {
    t = await startTestGateway({ kind: 'sqlite' });
    merchant = await t.createMerchant({ name: 'Harbour Tea' });
    ids.card = (await t.sale(merchant, { order_id: 'CARD-1', order_currency: 'EUR', order_amount: '25.00' })).body.trans_id;
    ids.apm = (await apmSale(t, merchant, { order_id: 'APM-1', payer_email: 'success@gmail.com' })).body.trans_id;
    await topUp(t, merchant, 'GHS', 50_000);
    ids.payout = (await payout(t, merchant, { order_id: 'PAYOUT-1', order_amount: '120.00' })).body.trans_id;
    await t.gateway.readModels.catchUpToHead(5000, allProjectionNames());
    const signedIn = await t.request('/dashboard/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: t.gateway.adminToken, next: '/dashboard/payments' }),
    });
    cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
  });
  after(() => t.stop());

  const page = async (path: string): Promise<string> => {
    const res = await t.request(path, { headers: { cookie } });
    expect(res.status, res.text).to.equal(200);
    return res.text;
  };
  /** The cells of the list's row of one payment, as text. */
  const cellsOf = (html: string, id: string): Record<string, string> => {
    const head = [...html.matchAll(/<th scope="col"[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]!);
    const row = html.split('<tr>').find((r) => r.includes(`/dashboard/payments/${id}"`));
    expect(row, `a row of ${id}`).to.be.a('string');
    const cells = [...row!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim());
    return Object.fromEntries(head.map((name, i) => [name, cells[i] ?? '']));
  };

  it('Given payments made within the same minute, Then the list shows each full trans id, selectable, with a copy button', async () => {
    const html = await page(`/dashboard/payments?merchant=${merchant.merchant_id}`);
    for (const id of Object.values(ids)) {
      expect(cellsOf(html, id)['Trans id']).to.include(id);
      expect(html).to.include(`<code class="id" data-copy-text>${id}</code>`);
      expect(html).to.include(`aria-label="Copy trans id ${id}"`);
    }
    expect(html).not.to.include('…');
  });

  it('Given a card sale, an S2S APM sale and a payout, Then every row shows its kind and the method or card it was made with', async () => {
    const html = await page(`/dashboard/payments?merchant=${merchant.merchant_id}`);
    expect(cellsOf(html, ids.card)).to.include({ 'Kind · channel': 'sale s2s_card', Method: 'VISA 411111******1111' });
    expect(cellsOf(html, ids.apm)).to.include({ 'Kind · channel': 'sale s2s_apm', Method: 'sb-redirect' });
    expect(cellsOf(html, ids.payout)).to.include({ 'Kind · channel': 'payout s2s_apm', Method: 'sb-momo' });
  });

  it('Given the method filter, Then it finds the APM payment by its method and the payout by its payout method, as it finds cards by brand', async () => {
    const found = async (query: string) => {
      const html = await page(`/dashboard/payments?${query}`);
      return Object.values(ids).filter((id) => html.includes(`/dashboard/payments/${id}"`));
    };
    expect(await found('method=sb-redirect')).to.deep.equal([ids.apm]);
    expect(await found('method=sb-momo')).to.deep.equal([ids.payout]);
    expect(await found('method=VISA')).to.deep.equal([ids.card]);
    expect(await found('channel=s2s_apm')).to.have.members([ids.apm, ids.payout]);
  });

  it('Given a payout, Then its page is titled with the full trans id and says it is a payout made with sb-momo', async () => {
    const html = await page(`/dashboard/payments/${ids.payout}`);
    expect(html).to.include(`<title>Payment ${ids.payout} · Ledger gateway</title>`);
    expect(html).to.include(`<h1>Payment ${ids.payout}</h1>`);
    const fact = (label: string) => new RegExp(`<dt>${label}</dt><dd>(.*?)</dd>`).exec(html)?.[1]?.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
    expect(fact('Kind')).to.equal('payout');
    expect(fact('Channel')).to.equal('s2s_apm');
    expect(fact('Method')).to.equal('sb-momo');
  });

  it('Given an S2S APM sale, Then its page names the method it was made with', async () => {
    const html = await page(`/dashboard/payments/${ids.apm}`);
    expect(/<dt>Method<\/dt><dd>(.*?)<\/dd>/.exec(html)?.[1]).to.equal('sb-redirect');
  });

  it('Given payouts but no sale in GHS, Then analytics draws no settled chart for GHS, and its balances show the top-up beside what was paid out', async () => {
    const html = await page(`/dashboard/analytics?merchant=${merchant.merchant_id}`);
    expect(html).to.include('Settled per day, EUR').and.to.include('Settled per day, USD');
    expect(html).not.to.include('Settled per day, GHS');
    const balances = html.slice(html.indexOf('id="h-balances"'));
    const balanceOf = (account: string) => new RegExp(`<td>GHS</td><td>${account}</td><td class="num">([^<]*)</td>`).exec(balances)?.[1];
    expect(balanceOf('topped_up')).to.equal('-500.00 GHS');
    expect(balanceOf('paid_out')).to.equal('120.00 GHS');
    expect(balanceOf('merchant_receivable')).to.equal('380.00 GHS');
  });
});
