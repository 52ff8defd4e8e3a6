/**
 * Which notification URLs a SALE may name: refused when callbacks could never reach them, accepted
 * when the resolver merely cannot answer in time (payment creation must stay fast).
 */
import { expect } from 'chai';
import { NotificationUrlCheck } from '../../src/application/callbacks/notification-url-check';
import { HostNotFoundError } from '../../src/application/ports/host-lookups';
import { isNonPublicAddress } from '../../src/domain/callback-delivery/network-address';

function checker(answers: Record<string, string[] | 'missing' | 'slow' | 'broken'>, allowNonPublicAddresses = false) {
  const lookups: string[] = [];
  const check = new NotificationUrlCheck({
    allowNonPublicAddresses,
    lookupBudgetMs: 50,
    resolve: async (host) => {
      lookups.push(host);
      const answer = answers[host];
      if (answer === 'missing' || answer === undefined) throw new HostNotFoundError(host);
      if (answer === 'slow') return new Promise<string[]>((resolve) => setTimeout(() => resolve(['93.184.216.34']), 500));
      if (answer === 'broken') throw new Error('EAI_AGAIN');
      return answer;
    },
  });
  return { check, lookups };
}

describe('notification URL check', () => {
  it('accepts a public host and looks it up only once', async () => {
    const { check, lookups } = checker({ 'shop.example': ['93.184.216.34'] });
    expect(await check.problem('https://shop.example/cb')).to.equal(null);
    expect(await check.problem('https://shop.example/other?x=1')).to.equal(null);
    expect(lookups).to.deep.equal(['shop.example']);
  });

  it('refuses other schemes, credentials and names that do not exist', async () => {
    const { check } = checker({ 'gone.example': 'missing' });
    expect(await check.problem('ftp://shop.example/cb')).to.equal('The URL must use http or https.');
    expect(await check.problem('https://a:b@shop.example/cb')).to.equal('The URL must not contain credentials.');
    expect(await check.problem('https://gone.example/cb')).to.equal('The host of the URL does not resolve.');
    expect(await check.problem('not a url')).to.equal('This value is not a valid URL.');
  });

  it('in production refuses hosts that point inside our network', async () => {
    const { check } = checker({ 'internal.example': ['10.1.2.3'], 'mixed.example': ['10.1.2.3', '93.184.216.34'] });
    const inside = 'The URL must point to a public address.';
    expect(await check.problem('http://127.0.0.1:8080/cb')).to.equal(inside);
    expect(await check.problem('http://localhost/cb')).to.equal(inside);
    expect(await check.problem('http://[::1]/cb')).to.equal(inside);
    expect(await check.problem('http://169.254.169.254/latest')).to.equal(inside);
    expect(await check.problem('https://internal.example/cb')).to.equal(inside);
  });

  it('in production refuses a name with any non-public answer: the sender would refuse to call it', async () => {
    const { check } = checker({ 'mixed.example': ['93.184.216.34', '10.1.2.3'], 'mapped.example': ['::ffff:7f00:1'] });
    const inside = 'The URL must point to a public address.';
    expect(await check.problem('https://mixed.example/cb')).to.equal(inside);
    expect(await check.problem('https://mapped.example/cb')).to.equal(inside);
  });

  it('in production refuses IPv6 spellings of loopback and the metadata service', async () => {
    const { check, lookups } = checker({});
    for (const url of [
      'http://[::ffff:127.0.0.1]:8080/',
      'http://[0:0:0:0:0:ffff:7f00:1]:8080/',
      'http://[::127.0.0.1]:8080/',
      'http://[::ffff:169.254.169.254]/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://[2002:a9fe:a9fe::1]/',
    ]) {
      expect(await check.problem(url), url).to.equal('The URL must point to a public address.');
    }
    expect(lookups, 'an IP literal is judged without a lookup').to.deep.equal([]);
  });

  it('for a merchant default judges only where the URL points, accepting a name that does not resolve yet', async () => {
    const { check } = checker({ 'internal.example': ['10.1.2.3'], 'shop.example': ['93.184.216.34'] });
    expect(await check.destinationProblem('http://[::ffff:127.0.0.1]/cb')).to.equal('The URL must point to a public address.');
    expect(await check.destinationProblem('https://internal.example/cb')).to.equal('The URL must point to a public address.');
    expect(await check.destinationProblem('https://shop.example/cb')).to.equal(null);
    expect(await check.destinationProblem('https://not-yet.example/cb')).to.equal(null);
    const sandbox = checker({}, true).check;
    expect(await sandbox.destinationProblem('http://[::ffff:127.0.0.1]/cb')).to.equal(null);
  });

  it('in the sandbox allows a merchant to test against its own machine', async () => {
    const { check } = checker({}, true);
    expect(await check.problem('http://127.0.0.1:3000/cb')).to.equal(null);
    expect(await check.problem('http://localhost:3000/cb')).to.equal(null);
  });

  it('accepts the URL when the resolver is slow or broken, rather than slowing the payment', async () => {
    const { check } = checker({ 'slow.example': 'slow', 'flaky.example': 'broken' });
    const started = Date.now();
    expect(await check.problem('https://slow.example/cb')).to.equal(null);
    expect(Date.now() - started).to.be.below(400);
    expect(await check.problem('https://flaky.example/cb')).to.equal(null);
  });

  it('knows the non-public ranges', () => {
    for (const ip of ['10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '127.0.0.1', '169.254.1.1', '100.64.0.1', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:10.0.0.1']) {
      expect(isNonPublicAddress(ip), ip).to.equal(true);
    }
    for (const ip of ['93.184.216.34', '172.32.0.1', '8.8.8.8', '2001:4860:4860::8888']) {
      expect(isNonPublicAddress(ip), ip).to.equal(false);
    }
  });
});
