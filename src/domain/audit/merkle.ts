/**
 * The Merkle tree a signed checkpoint commits to: its leaves are the chain hashes of every event of
 * the log in global order, so the tree of size n is the log's first n events. RFC 6962-style
 * hashing keeps leaves and inner nodes apart, so no inner node can pass for a leaf:
 *
 *   leaf = SHA-256(0x00 || chain hash as 32 bytes)
 *   node = SHA-256(0x01 || left || right)
 *
 * A tree of n > 1 leaves splits at k, the largest power of two below n: left holds leaves [0, k),
 * right [k, n). That shape gives an inclusion path of about log2(n) hashes from any leaf to the
 * root, and a consistency path proving that the tree of size m is a prefix of the tree of size n.
 */
import { createHash } from 'node:crypto';

export const leafHash = (chainHashHex: string): Buffer =>
  createHash('sha256').update(Buffer.from([0])).update(Buffer.from(chainHashHex, 'hex')).digest();

export const nodeHash = (left: Buffer, right: Buffer): Buffer =>
  createHash('sha256').update(Buffer.from([1])).update(left).update(right).digest();

/** The root of the empty tree: SHA-256 of nothing. */
export const EMPTY_ROOT = createHash('sha256').digest();

/** Largest power of two strictly below n (n >= 2). */
function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** Root of the tree over `leaves[from, to)` (leaf hashes). */
export function rootOf(leaves: readonly Buffer[], from = 0, to = leaves.length): Buffer {
  const n = to - from;
  if (n === 0) return EMPTY_ROOT;
  if (n === 1) return leaves[from]!;
  const k = split(n);
  return nodeHash(rootOf(leaves, from, from + k), rootOf(leaves, from + k, to));
}

/** The inclusion path of leaf `index` in the tree of the first `size` leaves, from the leaf up. */
export function inclusionPath(leaves: readonly Buffer[], index: number, size: number = leaves.length): Buffer[] {
  if (index < 0 || index >= size || size > leaves.length) throw new RangeError(`leaf ${index} is not in a tree of ${size}`);
  const path: Buffer[] = [];
  const walk = (m: number, from: number, to: number): void => {
    const n = to - from;
    if (n <= 1) return;
    const k = split(n);
    if (m < k) {
      walk(m, from, from + k);
      path.push(rootOf(leaves, from + k, to));
    } else {
      walk(m - k, from + k, to);
      path.push(rootOf(leaves, from, from + k));
    }
  };
  walk(index, 0, size);
  return path;
}

/** The root that `leaf` at `index` of a tree of `size` leads to along `path`, or null when the path has the wrong length. */
export function rootFromInclusion(leaf: Buffer, index: number, size: number, path: readonly Buffer[]): Buffer | null {
  if (index < 0 || index >= size) return null;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : null;
}

/** The consistency path from the tree of the first `m` leaves to the tree of the first `n`. */
export function consistencyPath(leaves: readonly Buffer[], m: number, n: number = leaves.length): Buffer[] {
  if (m < 1 || m > n || n > leaves.length) throw new RangeError(`no consistency path from size ${m} to ${n}`);
  const path: Buffer[] = [];
  const sub = (mm: number, from: number, to: number, complete: boolean): void => {
    const nn = to - from;
    if (mm === nn) {
      if (!complete) path.push(rootOf(leaves, from, to));
      return;
    }
    const k = split(nn);
    if (mm <= k) {
      sub(mm, from, from + k, complete);
      path.push(rootOf(leaves, from + k, to));
    } else {
      sub(mm - k, from + k, to, false);
      path.push(rootOf(leaves, from, from + k));
    }
  };
  sub(m, 0, n, true);
  return path;
}

/** Whether `path` proves that the tree (m, oldRoot) is a prefix of the tree (n, newRoot). */
export function verifyConsistency(m: number, n: number, oldRoot: Buffer, newRoot: Buffer, path: readonly Buffer[]): boolean {
  if (m < 1 || m > n) return false;
  if (m === n) return path.length === 0 && oldRoot.equals(newRoot);
  const proof = [...path];
  // When m is a power of two the old root is itself a node of the new tree, and the path leaves it out.
  if ((m & (m - 1)) === 0) proof.unshift(oldRoot);
  if (proof.length === 0) return false;
  let fn = m - 1;
  let sn = n - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = proof[0]!;
  let sr = proof[0]!;
  for (const c of proof.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && fr.equals(oldRoot) && sr.equals(newRoot);
}

/**
 * The right edge of a growing tree: the roots of its perfect subtrees, largest first (one per bit
 * of the size). Enough to add leaves and compute the root without the leaves before them, so a
 * checkpoint stores it and the next one continues from there.
 */
export class MerkleFrontier {
  private constructor(
    private readonly nodes: Array<{ size: number; hash: Buffer }>,
    private count: number,
  ) {}

  static empty(): MerkleFrontier {
    return new MerkleFrontier([], 0);
  }

  /** From a stored frontier (hex hashes, largest subtree first) of a tree of `size` leaves; null when they do not fit. */
  static restore(size: number, hashes: readonly string[]): MerkleFrontier | null {
    const sizes: number[] = [];
    for (let bit = 2 ** 52; bit >= 1; bit /= 2) if (Math.floor(size / bit) % 2 === 1) sizes.push(bit);
    if (!Number.isSafeInteger(size) || size < 0 || sizes.length !== hashes.length) return null;
    if (!hashes.every((h) => /^[0-9a-f]{64}$/.test(h))) return null;
    return new MerkleFrontier(sizes.map((s, i) => ({ size: s, hash: Buffer.from(hashes[i]!, 'hex') })), size);
  }

  get size(): number {
    return this.count;
  }

  addChainHash(chainHashHex: string): void {
    this.nodes.push({ size: 1, hash: leafHash(chainHashHex) });
    this.count += 1;
    while (this.nodes.length >= 2 && this.nodes.at(-1)!.size === this.nodes.at(-2)!.size) {
      const right = this.nodes.pop()!;
      const left = this.nodes.pop()!;
      this.nodes.push({ size: left.size * 2, hash: nodeHash(left.hash, right.hash) });
    }
  }

  root(): Buffer {
    if (this.nodes.length === 0) return EMPTY_ROOT;
    let r = this.nodes.at(-1)!.hash;
    for (let i = this.nodes.length - 2; i >= 0; i -= 1) r = nodeHash(this.nodes[i]!.hash, r);
    return r;
  }

  hashes(): string[] {
    return this.nodes.map((n) => n.hash.toString('hex'));
  }
}
