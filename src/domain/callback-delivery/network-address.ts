/**
 * Addresses a production gateway must never call on a merchant's behalf: its own machine, private
 * networks, link-local (cloud metadata services live there) and every other range that is not
 * publicly routable. A notification URL pointing there would let anyone with a merchant account
 * probe our network.
 *
 * One classifier for the URL check at payment creation, the merchant settings and the sender at
 * connect time. It works on numbers, never on the text: IPv6 has many spellings of one address
 * (`::ffff:127.0.0.1`, `::ffff:7f00:1`, `0:0:0:0:0:ffff:7f00:1`), and several IPv6 ranges carry an
 * IPv4 address that a translator or tunnel will deliver to (mapped, compatible, NAT64, 6to4,
 * Teredo); those are judged by the IPv4 address inside. Anything that is not an IP literal, or
 * carries a zone id, counts as non-public: when in doubt, do not call.
 */
import { isIP } from 'node:net';

type Range<T> = readonly [base: T, bits: number];

function v4(text: string): number {
  return text.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

const V4_NON_PUBLIC: ReadonlyArray<Range<number>> = [
  [v4('0.0.0.0'), 8], // "this network"
  [v4('10.0.0.0'), 8], // private
  [v4('100.64.0.0'), 10], // carrier-grade NAT
  [v4('127.0.0.0'), 8], // loopback
  [v4('169.254.0.0'), 16], // link-local: cloud metadata services
  [v4('172.16.0.0'), 12], // private
  [v4('192.0.0.0'), 24], // IETF protocol assignments
  [v4('192.0.2.0'), 24], // documentation (TEST-NET-1)
  [v4('192.168.0.0'), 16], // private
  [v4('198.18.0.0'), 15], // benchmarking
  [v4('198.51.100.0'), 24], // documentation (TEST-NET-2)
  [v4('203.0.113.0'), 24], // documentation (TEST-NET-3)
  [v4('224.0.0.0'), 4], // multicast
  [v4('240.0.0.0'), 4], // reserved, and 255.255.255.255 broadcast
];

function v4InRange(n: number, [base, bits]: Range<number>): boolean {
  const size = 2 ** (32 - bits);
  return Math.floor(n / size) === Math.floor(base / size);
}

function isNonPublicV4(n: number): boolean {
  return V4_NON_PUBLIC.some((range) => v4InRange(n, range));
}

/** The 128-bit value of an IPv6 literal (`::` expanded, dotted-quad tail allowed); null if it is none. */
function parseV6(text: string): bigint | null {
  if (text.includes('%') || isIP(text) !== 6) return null;
  let hex = text;
  const lastColon = hex.lastIndexOf(':');
  const tail = hex.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (isIP(tail) !== 4) return null;
    const n = v4(tail);
    hex = `${hex.slice(0, lastColon + 1)}${Math.floor(n / 0x10000).toString(16)}:${(n % 0x10000).toString(16)}`;
  }
  const halves = hex.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  return value;
}

function v6(text: string): bigint {
  const value = parseV6(text);
  if (value === null) throw new Error(`not an IPv6 address: ${text}`);
  return value;
}

function v6InRange(value: bigint, [base, bits]: Range<bigint>): boolean {
  const shift = BigInt(128 - bits);
  return value >> shift === base >> shift;
}

const LOW_32 = 0xffffffffn;
const low32 = (value: bigint, shift = 0n) => Number((value >> shift) & LOW_32);

const MAPPED: Range<bigint> = [v6('::ffff:0:0'), 96];
const COMPATIBLE: Range<bigint> = [v6('::'), 96];
const NAT64: Range<bigint> = [v6('64:ff9b::'), 96];
const SIX_TO_FOUR: Range<bigint> = [v6('2002::'), 16];
const TEREDO: Range<bigint> = [v6('2001::'), 32];
const GLOBAL_UNICAST: Range<bigint> = [v6('2000::'), 3];

const V6_NON_PUBLIC: ReadonlyArray<Range<bigint>> = [
  [v6('fc00::'), 7], // unique local
  [v6('fe80::'), 10], // link-local
  [v6('fec0::'), 10], // site-local (deprecated, still routed inside some networks)
  [v6('ff00::'), 8], // multicast
  [v6('100::'), 64], // discard-only
  // Local-use NAT64: where the IPv4 address sits depends on a prefix length only the local network
  // knows, and the range is not globally reachable, so all of it is refused.
  [v6('64:ff9b:1::'), 48],
  [v6('2001:db8::'), 32], // documentation
  [v6('3fff::'), 20], // documentation
  [v6('2001:2::'), 48], // benchmarking
  [v6('2001:10::'), 28], // ORCHID (deprecated)
];

function isNonPublicV6(value: bigint): boolean {
  // ::ffff:a.b.c.d is the IPv4 address itself; ::a.b.c.d (and so :: and ::1) was its predecessor.
  if (v6InRange(value, MAPPED) || v6InRange(value, COMPATIBLE)) return isNonPublicV4(low32(value));
  // The well-known NAT64 prefix translates to the IPv4 address in the last 32 bits.
  if (v6InRange(value, NAT64)) return isNonPublicV4(low32(value));
  if (v6InRange(value, SIX_TO_FOUR)) return isNonPublicV4(low32(value, 80n));
  if (v6InRange(value, TEREDO)) {
    const server = low32(value, 64n);
    const client = (low32(value) ^ 0xffffffff) >>> 0;
    return isNonPublicV4(server) || isNonPublicV4(client);
  }
  if (V6_NON_PUBLIC.some((range) => v6InRange(value, range))) return true;
  // Nothing outside 2000::/3 is allocated as global unicast.
  return !v6InRange(value, GLOBAL_UNICAST);
}

/**
 * Whether `ip` must not be called: true for every non-public address, in any spelling, and for
 * anything that is not an IP literal (a host name, a zone id, brackets around an IPv4 address).
 * IPv6 may come in brackets, as `URL.hostname` gives it.
 */
export function isNonPublicAddress(ip: string): boolean {
  if (ip.startsWith('[') && ip.endsWith(']')) {
    const value = parseV6(ip.slice(1, -1));
    return value === null || isNonPublicV6(value);
  }
  const family = isIP(ip);
  if (family === 4) return isNonPublicV4(v4(ip));
  if (family === 6) {
    const value = parseV6(ip);
    return value === null || isNonPublicV6(value);
  }
  return true;
}
