import { expect } from 'chai';
import { ipAllowed, parseCidr } from '../../src/domain/merchant/ip-allowlist';

describe('merchant ip allowlist', () => {
  describe('parseCidr', () => {
    it('parses an IPv4 block', () => {
      expect(parseCidr('10.0.0.0/8')).to.deep.equal({ address: '10.0.0.0', prefix: 8, family: 'ipv4' });
    });

    it('parses an IPv6 block', () => {
      expect(parseCidr('2001:db8::/32')).to.deep.equal({ address: '2001:db8::', prefix: 32, family: 'ipv6' });
    });

    it('reads a single address as a full-length prefix', () => {
      expect(parseCidr('203.0.113.7')).to.deep.equal({ address: '203.0.113.7', prefix: 32, family: 'ipv4' });
      expect(parseCidr('2001:db8::1')).to.deep.equal({ address: '2001:db8::1', prefix: 128, family: 'ipv6' });
    });

    it('accepts the extreme prefixes', () => {
      expect(parseCidr('0.0.0.0/0')).to.deep.equal({ address: '0.0.0.0', prefix: 0, family: 'ipv4' });
      expect(parseCidr('10.1.2.3/32')).to.deep.equal({ address: '10.1.2.3', prefix: 32, family: 'ipv4' });
      expect(parseCidr('::/0')).to.deep.equal({ address: '::', prefix: 0, family: 'ipv6' });
      expect(parseCidr('::1/128')).to.deep.equal({ address: '::1', prefix: 128, family: 'ipv6' });
    });

    it('ignores surrounding whitespace', () => {
      expect(parseCidr('  192.168.0.0/16 ')).to.deep.equal({ address: '192.168.0.0', prefix: 16, family: 'ipv4' });
    });

    const malformed = [
      '',
      ' ',
      'not-an-ip',
      '10.0.0',
      '256.1.1.1',
      '10.0.0.0/33',
      '2001:db8::/129',
      '10.0.0.0/-1',
      '10.0.0.0/',
      '10.0.0.0/8/8',
      '10.0.0.0/abc',
      '10.0.0.0/8.5',
      '10.0.0.0/+8',
      '10.0.0.0/0x8',
      '10.0.0.0/ 8',
      '10.0.0.0/1e1',
      'example.test/24',
      '::ffff:zz/96',
    ];
    for (const entry of malformed) {
      it(`refuses ${JSON.stringify(entry)}`, () => {
        expect(parseCidr(entry)).to.equal(null);
      });
    }
  });

  describe('ipAllowed', () => {
    it('an empty list allows every address', () => {
      for (const ip of ['203.0.113.7', '10.1.2.3', '2001:db8::1', '::ffff:10.1.2.3', '127.0.0.1']) {
        expect(ipAllowed([], ip), ip).to.equal(true);
      }
    });

    it('matches an IPv4 address inside a CIDR block and refuses one outside', () => {
      const list = ['10.0.0.0/8', '192.168.10.0/24'];
      expect(ipAllowed(list, '10.1.2.3')).to.equal(true);
      expect(ipAllowed(list, '10.255.255.255')).to.equal(true);
      expect(ipAllowed(list, '192.168.10.200')).to.equal(true);
      expect(ipAllowed(list, '11.0.0.1')).to.equal(false);
      expect(ipAllowed(list, '192.168.11.1')).to.equal(false);
    });

    it('matches the edges of a block', () => {
      const list = ['198.51.100.64/26'];
      expect(ipAllowed(list, '198.51.100.63')).to.equal(false);
      expect(ipAllowed(list, '198.51.100.64')).to.equal(true);
      expect(ipAllowed(list, '198.51.100.127')).to.equal(true);
      expect(ipAllowed(list, '198.51.100.128')).to.equal(false);
    });

    it('a single address allows exactly that address', () => {
      const list = ['203.0.113.7'];
      expect(ipAllowed(list, '203.0.113.7')).to.equal(true);
      expect(ipAllowed(list, '203.0.113.8')).to.equal(false);
      expect(ipAllowed(list, '203.0.113.6')).to.equal(false);
    });

    it('matches IPv6 blocks and single IPv6 addresses', () => {
      const list = ['2001:db8::/32', 'fe80::1'];
      expect(ipAllowed(list, '2001:db8:1234::1')).to.equal(true);
      expect(ipAllowed(list, '2001:0db8:0000:0000:0000:0000:0000:0001')).to.equal(true);
      expect(ipAllowed(list, '2001:db9::1')).to.equal(false);
      expect(ipAllowed(list, 'fe80::1')).to.equal(true);
      expect(ipAllowed(list, 'fe80::2')).to.equal(false);
    });

    it('an IPv4 list does not match an IPv6 address, and an IPv6 list does not match IPv4', () => {
      expect(ipAllowed(['10.0.0.0/8'], '2001:db8::1')).to.equal(false);
      expect(ipAllowed(['2001:db8::/32'], '10.1.2.3')).to.equal(false);
    });

    it('matches an IPv4-mapped IPv6 address as IPv4', () => {
      expect(ipAllowed(['10.0.0.0/8'], '::ffff:10.1.2.3')).to.equal(true);
      expect(ipAllowed(['10.1.2.3'], '::ffff:10.1.2.3')).to.equal(true);
      expect(ipAllowed(['10.1.2.3'], '::FFFF:10.1.2.3')).to.equal(true);
      expect(ipAllowed(['10.0.0.0/8'], '::ffff:11.1.2.3')).to.equal(false);
    });

    it('skips malformed entries and still applies the valid ones', () => {
      const list = ['garbage', '10.0.0.0/99', '203.0.113.0/24'];
      expect(ipAllowed(list, '203.0.113.9')).to.equal(true);
      expect(ipAllowed(list, '10.0.0.1')).to.equal(false);
    });

    it('a list of only malformed entries allows nothing (it is not an empty list)', () => {
      expect(ipAllowed(['garbage', '300.0.0.0/8'], '10.0.0.1')).to.equal(false);
    });

    it('refuses a caller address that is not an IP', () => {
      expect(ipAllowed(['0.0.0.0/0'], 'localhost')).to.equal(false);
      expect(ipAllowed(['0.0.0.0/0'], '')).to.equal(false);
      expect(ipAllowed(['0.0.0.0/0', '::/0'], '10.0.0.1')).to.equal(true);
    });
  });
});
