/**
 * The address classifier that stands between a merchant's notification URL and our own network.
 *
 * Random IPv4 addresses (biased towards the edges of every special range) are written in every form
 * a URL can carry them in: dotted, IPv4-mapped (dotted, hex, fully expanded), IPv4-compatible,
 * NAT64, 6to4 and Teredo, each also as the WHATWG URL parser normalises it. Random IPv6 addresses
 * outside those embedding ranges are written compressed, expanded and in upper case. The
 * classifier's verdict must equal a reference computed another way: a plain table of CIDR ranges
 * checked with node's `net.BlockList`, applied to the IPv4 address the generator embedded.
 *
 * The seed is fixed (NETWORK_ADDRESS_PROPERTY_SEED overrides it); a failure prints it.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { BlockList } from 'node:net';
import { isNonPublicAddress } from '../../src/domain/callback-delivery/network-address';

const SEED = Number(process.env.NETWORK_ADDRESS_PROPERTY_SEED ?? 20250612);
const RUNS = Number(process.env.NETWORK_ADDRESS_PROPERTY_RUNS ?? 2000);

/** The reference: IPv4 ranges no callback may reach (IANA special-purpose, not globally reachable). */
const V4_REFERENCE = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '255.255.255.255/32',
];

/**
 * The reference for IPv6 addresses that embed no IPv4 address. Global unicast is 2000::/3 only, so
 * ::/3, 4000::/2 and 8000::/1 stand for "everything else" (ULA, link-local, site-local, multicast,
 * 100::/64 and the local-use NAT64 prefix lie there too, listed for the reader).
 */
const V6_REFERENCE = [
  '::/3',
  '4000::/2',
  '8000::/1',
  'fc00::/7',
  'fe80::/10',
  'fec0::/10',
  'ff00::/8',
  '100::/64',
  '64:ff9b:1::/48',
  '2001:db8::/32',
  '2001:2::/48',
  '2001:10::/28',
  '3fff::/20',
];

/** Prefixes whose addresses carry an IPv4 address; plain IPv6 samples stay out of them. */
const EMBEDDING = ['::ffff:0:0/96', '::/96', '64:ff9b::/96', '2002::/16', '2001::/32'];

function blockList(cidrs: string[], family: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [address, bits] = cidr.split('/');
    list.addSubnet(address, Number(bits), family);
  }
  return list;
}

const v4Blocked = blockList(V4_REFERENCE, 'ipv4');
const v6Blocked = blockList(V6_REFERENCE, 'ipv6');
const embedding = blockList(EMBEDDING, 'ipv6');

const v4Reference = (n: number) => v4Blocked.check(dotted(n), 'ipv4');

function dotted(n: number): string {
  return [n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff].join('.');
}
const hex16 = (n: number) => (n & 0xffff).toString(16);
const hexPair = (n: number) => `${hex16(n >>> 16)}:${hex16(n)}`;
const pad16 = (n: number) => hex16(n).padStart(4, '0');

/** Base addresses near every edge of the table, plus ordinary public ones. */
const V4_AROUND = [
  ...V4_REFERENCE.map((c) => c.split('/')[0]),
  '1.0.0.0', '8.8.8.0', '11.0.0.0', '93.184.216.0', '100.63.255.0', '100.128.0.0', '126.255.255.0', '128.0.0.0',
  '169.253.255.0', '169.255.0.0', '172.15.255.0', '172.32.0.0', '191.255.255.0', '192.0.1.0', '192.0.3.0',
  '192.88.99.0', '192.167.255.0', '192.169.0.0', '198.17.255.0', '198.20.0.0', '198.51.99.0', '198.51.101.0',
  '203.0.112.0', '203.0.114.0', '223.255.255.0', '255.255.255.0',
];

function v4FromDotted(text: string): number {
  return text.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

const group = fc.nat({ max: 0xffff });

const ipv4: fc.Arbitrary<number> = fc.oneof(
  fc.tuple(group, group).map(([high, low]) => high * 0x10000 + low),
  fc
    .tuple(fc.constantFrom(...V4_AROUND), fc.integer({ min: -256, max: 511 }))
    .map(([base, delta]) => (v4FromDotted(base) + delta + 0x100000000) % 0x100000000),
);

/** Every way an IPv4 address can be written so that the classifier must find it. */
function v4Forms(n: number): string[] {
  return [
    dotted(n),
    `::ffff:${dotted(n)}`,
    `::ffff:${hexPair(n)}`,
    `::FFFF:${hexPair(n).toUpperCase()}`,
    `0:0:0:0:0:ffff:${hexPair(n)}`,
    `0000:0000:0000:0000:0000:ffff:${pad16(n >>> 16)}:${pad16(n)}`,
    `::${dotted(n)}`,
    `::${hexPair(n)}`,
    `0:0:0:0:0:0:${hexPair(n)}`,
    `64:ff9b::${dotted(n)}`,
    `64:ff9b::${hexPair(n)}`,
    `0064:ff9b:0000:0000:0000:0000:${pad16(n >>> 16)}:${pad16(n)}`,
  ];
}

/** The same address as the URL parser hands it over (normalised, in brackets for IPv6). */
function viaUrl(address: string): string {
  return new URL(`http://${address.includes(':') ? `[${address}]` : address}:8080/cb`).hostname;
}

function expectVerdict(address: string, expected: boolean, why: string): void {
  expect(isNonPublicAddress(address), `${address} (${why})`).to.equal(expected);
  const normalised = viaUrl(address);
  expect(isNonPublicAddress(normalised), `${normalised} from the URL parser (${why})`).to.equal(expected);
}

const params = { seed: SEED, numRuns: RUNS };

describe('network address classifier (property)', () => {
  it('classifies an IPv4 address the same in every form it can be written in', () => {
    fc.assert(
      fc.property(ipv4, (n) => {
        const expected = v4Reference(n);
        for (const form of v4Forms(n)) expectVerdict(form, expected, `embeds ${dotted(n)}`);
      }),
      params,
    );
  });

  it('classifies 6to4 by the IPv4 address in bits 16-47', () => {
    fc.assert(
      fc.property(ipv4, fc.array(group, { minLength: 5, maxLength: 5 }), (n, rest) => {
        const address = `2002:${hexPair(n)}:${rest.map(hex16).join(':')}`;
        expectVerdict(address, v4Reference(n), `6to4 of ${dotted(n)}`);
      }),
      params,
    );
  });

  it('classifies Teredo by its server and its (inverted) client address: either one inside refuses', () => {
    fc.assert(
      fc.property(ipv4, ipv4, group, group, (server, client, flags, port) => {
        const obscured = (client ^ 0xffffffff) >>> 0;
        const address = `2001:0:${hexPair(server)}:${hex16(flags)}:${hex16(port)}:${hexPair(obscured)}`;
        const expected = v4Reference(server) || v4Reference(client);
        expectVerdict(address, expected, `Teredo server ${dotted(server)} client ${dotted(client)}`);
      }),
      params,
    );
  });

  it('classifies IPv6 addresses that embed no IPv4 address by their range', () => {
    const prefixes: Array<[string, number]> = [
      ['0:0:0:0:0:0:0:0', 0],
      ['2000:0:0:0:0:0:0:0', 3],
      ['2a00:1450:0:0:0:0:0:0', 32],
      ['2606:4700:0:0:0:0:0:0', 32],
      ['2001:4860:0:0:0:0:0:0', 32],
      ['2001:0:0:0:0:0:0:0', 16],
      ['2001:db8:0:0:0:0:0:0', 31],
      ['2001:2:0:0:0:0:0:0', 47],
      ['2001:10:0:0:0:0:0:0', 27],
      ['3fff:0:0:0:0:0:0:0', 19],
      ['fc00:0:0:0:0:0:0:0', 6],
      ['fe80:0:0:0:0:0:0:0', 9],
      ['ff00:0:0:0:0:0:0:0', 7],
      ['100:0:0:0:0:0:0:0', 63],
      ['64:ff9b:1:0:0:0:0:0', 47],
      ['64:ff9b:0:0:0:0:0:0', 64],
      ['0:0:0:0:0:0:0:0', 80],
    ];
    const sample = fc
      .tuple(fc.constantFrom(...prefixes), fc.array(group, { minLength: 8, maxLength: 8 }))
      .map(([[prefix, bits], random]) => {
        const base = prefix.split(':').map((g) => parseInt(g, 16));
        return base.map((g, i) => {
          const keep = Math.max(0, Math.min(16, bits - 16 * i));
          const mask = keep === 0 ? 0 : (0xffff << (16 - keep)) & 0xffff;
          return (g & mask) | (random[i] & ~mask & 0xffff);
        });
      })
      .filter((groups) => !embedding.check(groups.map(hex16).join(':'), 'ipv6'));
    fc.assert(
      fc.property(sample, (groups) => {
        const expanded = groups.map(hex16).join(':');
        const expected = v6Blocked.check(expanded, 'ipv6');
        expectVerdict(expanded, expected, 'plain IPv6');
        expectVerdict(groups.map(pad16).join(':').toUpperCase(), expected, 'plain IPv6, padded upper case');
      }),
      params,
    );
  });

  it('counts anything that is not an IP literal, and any zone id, as non-public', () => {
    const notLiterals = [
      '', 'localhost', 'shop.example', '1.2.3', '1.2.3.4.5', '1.2.3.256', '01.2.3.4', '0x7f.0.0.1', ' 8.8.8.8',
      '8.8.8.8 ', '[8.8.8.8]', '[2001:4860::8888', '2001:4860::8888]', '2001:4860::8888%eth0', '[fe80::1%25eth0]',
      '1:2:3:4:5:6:7:8:9', '1::2::3', ':::', '::ffff:1.2.3.256', '2001:4860:::8888',
    ];
    for (const text of notLiterals) expect(isNonPublicAddress(text), JSON.stringify(text)).to.equal(true);
    expect(isNonPublicAddress('[2001:4860:4860::8888]'), 'brackets are stripped').to.equal(false);
    expect(isNonPublicAddress('8.8.8.8')).to.equal(false);
  });
});

describe('network address classifier: worked examples', () => {
  const EXAMPLES: Array<[string, boolean, string]> = [
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', true, 'Teredo example of RFC 4380: client 192.0.2.45 is documentation'],
    ['2001:0:5db8:d822:0:0:a247:27dd', false, 'Teredo server 93.184.216.34, client 93.184.216.34'],
    ['2001:0:7f00:1::a247:27dd', true, 'Teredo server on loopback'],
    ['2002:c000:204::1', true, '6to4 of 192.0.2.4'],
    ['2002:5db8:d822::1', false, '6to4 of 93.184.216.34'],
    ['2002:a9fe:a9fe::', true, '6to4 of the metadata service'],
    ['64:ff9b::5db8:d822', false, 'NAT64 of 93.184.216.34'],
    ['64:ff9b::10.0.0.1', true, 'NAT64 of a private address'],
    ['64:ff9b:1::5db8:d822', true, 'local-use NAT64 is refused whole'],
    ['::ffff:93.184.216.34', false, 'mapped public address'],
    ['::ffff:a9fe:a9fe', true, 'mapped metadata service'],
    ['::', true, 'unspecified'],
    ['::1', true, 'loopback'],
    ['fec0::1', true, 'site-local'],
    ['100::1', true, 'discard'],
    ['2001:db8::1', true, 'documentation'],
    ['ff02::1', true, 'multicast'],
    ['2606:4700:4700::1111', false, 'public'],
    ['255.255.255.255', true, 'broadcast'],
    ['192.0.2.1', true, 'documentation'],
    ['198.51.100.1', true, 'documentation'],
    ['203.0.113.9', true, 'documentation'],
    ['1.1.1.1', false, 'public'],
  ];
  for (const [address, nonPublic, why] of EXAMPLES) {
    it(`${address} is ${nonPublic ? 'non-public' : 'public'} (${why})`, () => {
      expect(isNonPublicAddress(address)).to.equal(nonPublic);
    });
  }
});

describe('network address classifier: the addresses that reached loopback and the metadata service', () => {
  const PROBES = [
    'http://[::ffff:127.0.0.1]:8080/',
    'http://[0:0:0:0:0:ffff:7f00:1]:8080/',
    'http://[::127.0.0.1]:8080/',
    'http://[::ffff:169.254.169.254]/',
    'http://[64:ff9b::a9fe:a9fe]/',
  ];
  for (const url of PROBES) {
    it(`${url} is non-public, as the URL parser hands it over`, () => {
      const hostname = new URL(url).hostname;
      expect(isNonPublicAddress(hostname.slice(1, -1)), hostname).to.equal(true);
      expect(isNonPublicAddress(hostname), hostname).to.equal(true);
    });
  }
});
