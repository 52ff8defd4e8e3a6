/**
 * Every rule the code follows is stated in the repository's own docs: code, tests and docs cite
 * those (`docs/api-notes.md#wallets`), never a decisions file kept outside the repository, and each
 * `docs/<page>.md#<anchor>` they cite names a heading that page has (anchors as GitHub makes them).
 */
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT, anchorsOf, readDoc } from './markdown';

/** Where citations live: the sources, the tests, the projections, the docs and the README. */
const ROOTS = ['src', 'test', 'projections', 'docs', 'README.md'];
const TEXT_FILE = /\.(ts|cts|mts|js|cjs|mjs|md|sql|json|html|css|ya?ml|txt)$/;
/** Spelled in parts, so this file does not cite it. */
const OUTSIDE_FILE = new RegExp(['decisions', 'md'].join('\\.'), 'i');
const DOC_REFERENCE = /(?<![\w./-])docs\/[\w./-]+?\.md#[\w-]+/g;
const SELF = relative(REPO_ROOT, __filename);

function filesUnder(path: string): string[] {
  const full = join(REPO_ROOT, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return TEXT_FILE.test(path) ? [path] : [];
  return readdirSync(full)
    .sort()
    .filter((name) => name !== 'node_modules')
    .flatMap((name) => filesUnder(join(path, name)));
}

/** Citations of the outside decisions file, as `file:line text`. */
export function outsideCitations(path: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) => (OUTSIDE_FILE.test(line) ? [`${path}:${i + 1} ${line.trim()}`] : []));
}

/** `docs/<page>.md#<anchor>` references whose page or heading does not exist, as `file:line reference: why`. */
export function brokenDocReferences(path: string, text: string, read: (doc: string) => string | null = readIfThere): string[] {
  const problems: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const [reference] of line.matchAll(DOC_REFERENCE)) {
      const [page, anchor] = reference.split('#') as [string, string];
      const doc = read(page);
      if (doc === null) problems.push(`${path}:${i + 1} ${reference}: no file ${page}`);
      else if (!anchorsOf(doc).has(anchor)) problems.push(`${path}:${i + 1} ${reference}: ${page} has no heading #${anchor}`);
    }
  });
  return problems;
}

function readIfThere(page: string): string | null {
  return existsSync(join(REPO_ROOT, page)) ? readDoc(page) : null;
}

describe('Docs: the rules the code follows are the repository\'s own', () => {
  const files = ROOTS.flatMap(filesUnder).filter((path) => path !== SELF);

  it('Given src/, test/, projections/, docs/ and README.md, then the sources, the tests and the docs are among the files read', () => {
    for (const path of ['src/api/s2s/post-route.ts', 'test/docs/markdown.ts', 'docs/api-notes.md', 'README.md']) expect(files).to.include(path);
  });

  it('When they are read, then none cites the decisions file kept outside the repository', () => {
    const problems = files.flatMap((path) => outsideCitations(path, readFileSync(join(REPO_ROOT, path), 'utf8')));
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('When they cite docs/<page>.md#<anchor>, then the page exists and has that heading', () => {
    const problems = files.flatMap((path) => brokenDocReferences(path, readFileSync(join(REPO_ROOT, path), 'utf8')));
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  describe('the checker itself', () => {
    const docs: Record<string, string> = { 'docs/guide.md': '# Guide\n## Payouts (`CREDIT2VIRTUAL`)\n## Fields\n## Fields\n' };
    const read = (page: string) => docs[page] ?? null;

    it('Given a citation of the decisions file in any spelling, then it is reported with its line', () => {
      const name = ['decisions', 'md'].join('.');
      expect(outsideCitations('src/x.ts', `// ok\n// see ${name} §8\n// ${name.toUpperCase()}`)).to.deep.equal([
        `src/x.ts:2 // see ${name} §8`,
        `src/x.ts:3 // ${name.toUpperCase()}`,
      ]);
    });

    it('Given references to headings, then a missing page or heading is reported and a heading with code, punctuation or a repeat is found', () => {
      const text = [
        '/** (docs/guide.md#payouts-credit2virtual) and docs/guide.md#fields-1, docs/guide.md */',
        '// docs/guide.md#nowhere, docs/missing.md#x; mydocs/guide.md#nowhere is not a reference',
      ].join('\n');
      expect(brokenDocReferences('src/x.ts', text, read)).to.deep.equal([
        'src/x.ts:2 docs/guide.md#nowhere: docs/guide.md has no heading #nowhere',
        'src/x.ts:2 docs/missing.md#x: no file docs/missing.md',
      ]);
    });
  });
});
