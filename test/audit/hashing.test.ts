/**
 * The hash formats are a promise to every store written so far: a release that changed them would
 * report every old event as tampered. The fixed vectors below must never change.
 */
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { canonicalJson } from '../../src/domain/audit/canonical-json';
import { eventChainHash, eventChainHashOfText } from '../../src/domain/audit/chain-hash';
import { checkpointDigest, CoveredEvents, parseCheckpoint } from '../../src/domain/audit/checkpoint';

describe('canonical JSON', function () {
  it('sorts keys at every depth and writes no whitespace', function () {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).to.equal('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it('writes what a store keeps of values JSON cannot hold, as JSON.stringify does', function () {
    const sparse = [1, , 3]; // eslint-disable-line no-sparse-arrays
    expect(
      canonicalJson({ gone: undefined, fn: () => 1, nan: NaN, inf: -Infinity, list: [undefined, sparse], at: new Date(0) }),
    ).to.equal('{"at":"1970-01-01T00:00:00.000Z","inf":null,"list":[null,[1,null,3]],"nan":null}');
  });

  it('refuses a bigint instead of guessing a form for it', function () {
    expect(() => canonicalJson({ amount: 10n })).to.throw(TypeError, /bigint/);
  });

  it('gives one text per value: the same after a round trip through any JSON text of it', function () {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(canonicalJson(JSON.parse(text))).to.equal(text);
        // Another store's text of the same value (here: pretty-printed, keys reversed) reads back the same.
        const reordered = JSON.parse(JSON.stringify(reverseKeys(value), null, 2));
        expect(canonicalJson(reordered)).to.equal(text);
      }),
    );
  });
});

describe('event chain hash', function () {
  const event = {
    prevHash: null,
    streamId: 'payment-1',
    version: 0n,
    type: 'PaymentSettled',
    schemaVersion: 1,
    data: { amount: 1999, descriptor: 'SHOP*1', text: 'Zürich 東京' },
    metadata: { correlationId: 'req-1' },
  };

  it('is the fixed SHA-256 of one canonical JSON array (the stored format, never to change)', function () {
    const text = '["event-chain/1","","payment-1","0","PaymentSettled",1,{"amount":1999,"descriptor":"SHOP*1","text":"Zürich 東京"},{"correlationId":"req-1"}]';
    expect(sha256(text)).to.equal('f6eebe61751c9ba1e6e0bcd48daac894524a3a37791018558b79b3c559e471b7');
    expect(eventChainHash(event)).to.equal('f6eebe61751c9ba1e6e0bcd48daac894524a3a37791018558b79b3c559e471b7');
    expect(eventChainHashOfText(event, canonicalJson(event.data), canonicalJson(event.metadata))).to.equal(eventChainHash(event));
  });

  it('changes with every input: predecessor, stream, version, type, schema version, data and metadata', function () {
    const base = eventChainHash(event);
    const variants = [
      { prevHash: 'a'.repeat(64) },
      { streamId: 'payment-2' },
      { version: 1n },
      { type: 'PaymentAuthorized' },
      { schemaVersion: 2 },
      { data: { ...event.data, amount: 1998 } },
      { metadata: { correlationId: 'req-2' } },
    ];
    const hashes = variants.map((change) => eventChainHash({ ...event, ...change }));
    expect(new Set([base, ...hashes]).size).to.equal(variants.length + 1);
  });

  it('is unambiguous where fields meet', function () {
    // A naive concatenation would give these two the same input.
    const a = eventChainHash({ ...event, streamId: 'payment-1', type: '0PaymentSettled' });
    const b = eventChainHash({ ...event, streamId: 'payment-10', type: 'PaymentSettled' });
    expect(a).to.not.equal(b);
  });
});

describe('checkpoint digest', function () {
  it('folds chain hashes in order, and commits to the count, the range and the previous digest', function () {
    const hashes = ['a', 'b', 'c'].map((c) => c.repeat(64));
    const fold = (list: string[]) => {
      const covered = new CoveredEvents();
      for (const hash of list) covered.add(hash);
      return { count: covered.count, eventsDigest: covered.digest() };
    };
    const digest = (list: string[], previousDigest: string | null = null, previousPosition: string | null = null, upTo = '9') =>
      checkpointDigest({ previousDigest, previousPosition, upToPosition: upTo, eventCount: fold(list).count, eventsDigest: fold(list).eventsDigest });
    const base = digest(hashes);
    expect(fold(hashes).count).to.equal(3);
    expect(digest([hashes[1]!, hashes[0]!, hashes[2]!])).to.not.equal(base);
    expect(digest(hashes.slice(0, 2))).to.not.equal(base);
    expect(digest(hashes, 'd'.repeat(64), '1')).to.not.equal(base);
    expect(digest(hashes, null, null, '10')).to.not.equal(base);
    expect(base).to.equal(
      sha256(canonicalJson(['audit-checkpoint/1', '', '', '9', 3, sha256(hashes.map((hash) => `${hash}\n`).join(''))])),
    );
  });

  it('reads only well-formed checkpoint data', function () {
    const valid = { previousPosition: null, previousDigest: null, upToPosition: '12', eventCount: 12, digest: 'f'.repeat(64), recordedAt: 'x' };
    expect(parseCheckpoint(valid)).to.deep.equal(valid);
    expect(parseCheckpoint({ ...valid, upToPosition: 12 })).to.equal(null);
    expect(parseCheckpoint({ ...valid, eventCount: -1 })).to.equal(null);
    expect(parseCheckpoint({ ...valid, digest: 'xyz' })).to.equal(null);
    expect(parseCheckpoint({ ...valid, previousPosition: '3' })).to.equal(null); // without its digest
  });
});

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).reverse().map((key) => [key, reverseKeys((value as Record<string, unknown>)[key])]));
  }
  return value;
}
