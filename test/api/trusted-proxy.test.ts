/**
 * Behind a proxy (TRUST_PROXY=true) the client's address is the one the proxy saw: the last entry of
 * X-Forwarded-For, the one the proxy itself wrote. Entries before it are whatever the client sent,
 * so an allowlist (or a rate limit) judged by them could be talked round.
 */
import { expect } from 'chai';
import { forEachStore, type TestMerchant } from '../support/gateway-harness';

forEachStore(
  'Client addresses behind a trusted proxy',
  (h) => {
    let fenced: TestMerchant;
    beforeEach(async () => {
      fenced = await h().createMerchant({ ipAllowlist: ['203.0.113.0/24'] });
    });
    const saleVia = (forwardedFor: string) =>
      h().request('/post', {
        method: 'POST',
        headers: { 'X-Forwarded-For': forwardedFor },
        body: new URLSearchParams(Object.entries(h().saleFields(fenced)) as [string, string][]),
      });

    it('Given an allowlisted address written by the client before the proxy\'s entry, then the request is refused', async () => {
      const res = await saleVia('203.0.113.5, 198.51.100.9');
      expect(res.body).to.deep.equal({ result: 'ERROR', error_code: 100000, error_message: 'Request from this ip is not allowed.' });
    });

    it('Given the proxy saw an allowlisted address, then the request goes through, whatever the client wrote before it', async () => {
      expect((await saleVia('198.51.100.9, 203.0.113.5')).body).to.include({ result: 'SUCCESS', status: 'SETTLED' });
      expect((await saleVia('203.0.113.7')).body).to.include({ result: 'SUCCESS', status: 'SETTLED' });
    });
  },
  { env: { TRUST_PROXY: 'true' } },
);
