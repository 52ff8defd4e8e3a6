/**
 * The Merkle tree of signed checkpoints: every inclusion and consistency path of small trees
 * verifies, a wrong one does not, and the frontier a checkpoint keeps reaches the same root as
 * the whole tree.
 */
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import {
  consistencyPath,
  inclusionPath,
  leafHash,
  MerkleFrontier,
  nodeHash,
  rootFromInclusion,
  rootOf,
  verifyConsistency,
} from '../../src/domain/audit/merkle';

const chainHash = (i: number): string => createHash('sha256').update(`event ${i}`).digest('hex');
const leaves = (n: number): Buffer[] => Array.from({ length: n }, (_, i) => leafHash(chainHash(i)));

describe('audit Merkle tree', function () {
  it('hashes leaves and nodes apart, and splits at the largest power of two below the size', function () {
    const l = leaves(3);
    expect(leafHash(chainHash(0))).to.deep.equal(createHash('sha256').update(Buffer.concat([Buffer.from([0]), Buffer.from(chainHash(0), 'hex')])).digest());
    expect(rootOf(l)).to.deep.equal(nodeHash(nodeHash(l[0]!, l[1]!), l[2]!));
    expect(rootOf(l)).to.not.deep.equal(nodeHash(l[0]!, nodeHash(l[1]!, l[2]!)));
  });

  it('proves every leaf of trees of 1 to 33 leaves, and refuses a path for another index or another root', function () {
    for (let n = 1; n <= 33; n += 1) {
      const l = leaves(n);
      const root = rootOf(l);
      for (let i = 0; i < n; i += 1) {
        const path = inclusionPath(l, i);
        expect(rootFromInclusion(l[i]!, i, n, path), `leaf ${i} of ${n}`).to.deep.equal(root);
        if (n > 1) expect(rootFromInclusion(l[i]!, (i + 1) % n, n, path)?.equals(root) ?? false, `leaf ${i} of ${n} at another index`).to.equal(false);
      }
    }
  });

  it('proves every tree of 1 to 33 leaves a prefix of every larger one, and refuses a changed leaf', function () {
    for (let n = 1; n <= 33; n += 1) {
      const l = leaves(n);
      for (let m = 1; m <= n; m += 1) {
        const path = consistencyPath(l, m, n);
        expect(verifyConsistency(m, n, rootOf(l, 0, m), rootOf(l), path), `${m} → ${n}`).to.equal(true);
        const rewritten = [...l];
        rewritten[m - 1] = leafHash(chainHash(1000));
        expect(verifyConsistency(m, n, rootOf(rewritten, 0, m), rootOf(l), path), `${m} → ${n} rewritten`).to.equal(false);
      }
    }
  });

  it('keeps the right edge of the tree, from which the root follows and more leaves can be added', function () {
    const frontier = MerkleFrontier.empty();
    for (let n = 1; n <= 40; n += 1) {
      frontier.addChainHash(chainHash(n - 1));
      expect(frontier.root(), `size ${n}`).to.deep.equal(rootOf(leaves(n)));
      const restored = MerkleFrontier.restore(n, frontier.hashes())!;
      restored.addChainHash(chainHash(n));
      expect(restored.root()).to.deep.equal(rootOf(leaves(n + 1)));
    }
    expect(MerkleFrontier.restore(5, [chainHash(0)])).to.equal(null);
  });
});
