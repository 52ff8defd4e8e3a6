/**
 * The repository stands alone: every relative link in README.md and docs/ leads to a file of the
 * repository (and a `#anchor` to one of its headings), and no page sends a reader to the
 * specification files kept outside it. The specification is named once, as provenance, in one
 * fixed sentence.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { REPO_ROOT, anchorsOf, docFiles, githubSlug, linksOf, proseLines, readDoc } from './markdown';

const PROVENANCE =
  'This API follows the payment gateway API specification and its decisions record, kept outside this repository; everything a merchant needs is restated here.';

/** Where a page may state the provenance, and nowhere else. */
const PROVENANCE_PAGES = ['README.md', 'docs/reference/README.md'];

/** Ways of pointing a reader at the specification files rather than at this repository. */
const OUTSIDE_REFERENCES: Array<[string, RegExp]> = [
  ['a path into ../shared', /\.\.\/shared\b/],
  ['the spec folder', /shared\/spec/],
  ['the specification file', /payment-gateway-api/i],
  ['the decisions file', /decisions\.md/i],
  ['a decisions section', /decisions\s*(?:§|section\s*\d)/i],
  ['a numbered section mark', /§\s*\d/],
];

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** Problems of one document's links: a missing file, or an anchor its target has no heading for. */
function linkProblems(path: string, markdown: string, read: (path: string) => string = readDoc): string[] {
  const problems: string[] = [];
  for (const { line, target } of linksOf(markdown)) {
    if (isExternal(target)) continue;
    const hash = target.indexOf('#');
    const filePart = hash < 0 ? target : target.slice(0, hash);
    const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
    const resolved = filePart === '' ? path : normalize(join(dirname(path), decodeURIComponent(filePart)));
    if (resolved.startsWith('..')) {
      problems.push(`${path}:${line} ${target} leaves the repository`);
      continue;
    }
    if (filePart !== '' && !existsSync(join(REPO_ROOT, resolved))) {
      problems.push(`${path}:${line} ${target}: no file ${resolved}`);
      continue;
    }
    if (anchor === null) continue;
    if (!resolved.endsWith('.md')) {
      problems.push(`${path}:${line} ${target}: an anchor into a file that is not Markdown`);
      continue;
    }
    const targetDoc = resolved === path ? markdown : read(resolved);
    if (!anchorsOf(targetDoc).has(anchor)) problems.push(`${path}:${line} ${target}: ${resolved} has no heading #${anchor}`);
  }
  return problems;
}

describe('Docs: the repository stands alone', () => {
  const files = docFiles();

  it('Given README.md and docs/, then the reference pages are among the documents checked', () => {
    for (const page of ['README.md', 's2s-card.md', 'checkout.md', 'callbacks.md', 'hashes.md', 'sandbox.md', 'errors.md']) {
      expect(files, page).to.include(`docs/reference/${page}`);
    }
    expect(files).to.include('README.md');
  });

  it('When every relative link of every document is followed, then each reaches an existing file and heading', () => {
    const problems = files.flatMap((path) => linkProblems(path, readDoc(path)));
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('When the documents are read, then none points at the specification files outside the repository', () => {
    const problems: string[] = [];
    for (const path of files) {
      readDoc(path)
        .split('\n')
        .forEach((text, i) => {
          for (const [what, pattern] of OUTSIDE_REFERENCES) if (pattern.test(text)) problems.push(`${path}:${i + 1} ${what}: ${text.trim()}`);
        });
    }
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('Then the provenance sentence stands once in README.md and once in the reference index, and nowhere else', () => {
    for (const path of files) {
      const count = readDoc(path).split(PROVENANCE).length - 1;
      expect(count, path).to.equal(PROVENANCE_PAGES.includes(path) ? 1 : 0);
    }
  });

  describe('the checker itself', () => {
    it('Given a link to a missing file or heading, then it is reported; links in code are not links', () => {
      const doc = [
        '# Title',
        '## `GET_TRANS_STATUS` and more',
        'See [here](#get_trans_status-and-more), [there](#nowhere), [gone](missing.md) and [ok](../README.md).',
        '`[not a link](missing-too.md)`',
        '```',
        '[not a link either](missing-three.md)',
        '```',
      ].join('\n');
      expect(linkProblems('docs/example.md', doc)).to.deep.equal([
        'docs/example.md:3 #nowhere: docs/example.md has no heading #nowhere',
        'docs/example.md:3 missing.md: no file docs/missing.md',
      ]);
    });

    it('Given headings with code, punctuation, underscores and repeats, then the anchors are the ones GitHub makes', () => {
      expect(githubSlug('S2S CREATE_SCHEDULE')).to.equal('s2s-create_schedule');
      expect(githubSlug('Capture, void, refund')).to.equal('capture-void-refund');
      expect(githubSlug('Return from 3-D Secure and redirects')).to.equal('return-from-3-d-secure-and-redirects');
      expect(githubSlug('The 3-D Secure (ACS) simulator')).to.equal('the-3-d-secure-acs-simulator');
      expect(githubSlug('S2S CARD: `POST /post`')).to.equal('s2s-card-post-post');
      expect(githubSlug('What differs in production (`GATEWAY_ENV`)')).to.equal('what-differs-in-production-gateway_env');
      expect([...anchorsOf('## Fields\n## Fields\n## Fields')]).to.deep.equal(['fields', 'fields-1', 'fields-2']);
    });

    it('Given a heading inside a fenced block, then it is no anchor', () => {
      expect(anchorsOf('```sh\n# a comment\n```\n## Real')).to.deep.equal(new Set(['real']));
      expect(proseLines('```\nx\n```\ny').map((l) => l.text)).to.deep.equal(['y']);
    });
  });
});
