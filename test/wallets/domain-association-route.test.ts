/**
 * `GET /.well-known/apple-developer-merchantid-domain-association`: the file of the merchant that
 * registered the requested host, as text/plain with 200; any other host gets the spec's 404.
 */
import { expect } from 'chai';
import { forEachStore } from '../support/gateway-harness';
import { rawRequest } from '../support/raw-request';

const PATH = '/.well-known/apple-developer-merchantid-domain-association';
const FILE = '7B227073704964223A2239343531...sandbox association file\n';

forEachStore('Apple Pay domain association file', (h) => {
  before(async () => {
    const merchant = await h().createMerchant({ name: 'Association Shop' });
    await h().gateway.wallets.settings.update(merchant.merchant_id, { domains: ['pay.shop.example'], domainAssociation: FILE });
  });

  it('Given a merchant with the domain and a file, when Apple asks at that host, then the file comes back as text/plain', async () => {
    const r = await rawRequest(h().baseUrl, PATH, { headers: { Host: 'pay.shop.example' } });
    expect(r.status).to.equal(200);
    expect(r.headers.get('content-type')).to.match(/^text\/plain/);
    expect(r.text).to.equal(FILE);
    // The host is matched without regard to case or port.
    const upper = await rawRequest(h().baseUrl, PATH, { headers: { Host: 'PAY.Shop.Example:443' } });
    expect([upper.status, upper.text]).to.deep.equal([200, FILE]);
  });

  it('Given a host no merchant registered, when the file is asked for, then it is 404 in the spec error shape', async () => {
    const r = await rawRequest(h().baseUrl, PATH, { headers: { Host: 'elsewhere.example' } });
    expect(r.status).to.equal(404);
    expect(r.body).to.deep.equal({ result: 'ERROR', error_code: 0, error_message: 'Route or parameters is not supported' });
  });
});
