/**
 * Every error docs/reference/errors.md lists is one the gateway is held to by its test suite: each
 * `error_code` and `error_message` pair of its tables, and each field error named there, appears as
 * an expected value in a test under test/ (outside test/docs), the code within a few lines of the
 * message. A pair the page lists that no test expects is a pair nothing shows the gateway answers;
 * a pair the page says the gateway does not answer must not be in its sources at all.
 *
 * Placeholders of the page (`<field>`, `N`, `…`) stand for any text; everything else is matched
 * exactly.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT, readDoc, tableAfter } from './markdown';

const PAGE = 'docs/reference/errors.md';

/** How far (in lines) from the message a test may state its code. */
const CODE_DISTANCE = 12;

interface Listed {
  line: number;
  code: string | null;
  message: string;
}

const codeSpans = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

/** The pairs of "Errors by code": `error_code`, `error_message`. */
export function errorsByCode(markdown: string): Listed[] {
  return tableAfter(PAGE, markdown, '## Errors by code').map(({ line, cells }) => {
    const [message] = codeSpans(cells[1]);
    if (!/^\d+$/.test(cells[0]) || message === undefined) throw new Error(`${PAGE}:${line}: not "| code | \`message\` | …"`);
    return { line, code: cells[0], message };
  });
}

/** The admin API's refusals: the message of each row, with its code (100000 unless the row states one). */
export function adminErrors(markdown: string): Listed[] {
  return tableAfter(PAGE, markdown, '## Admin API errors').flatMap(({ line, cells }) => {
    const stated = /`error_code` (\d+)/.exec(cells[1])?.[1];
    // Rows of field errors ("Request data is invalid. with field: …") list the field errors after the first span.
    const [first, ...rest] = codeSpans(cells[1]);
    const out: Listed[] = [{ line, code: stated ?? '100000', message: first }];
    for (const fieldError of rest) if (fieldError.includes(': ')) out.push({ line, code: null, message: fieldError });
    return out;
  });
}

/** The field errors of "Messages of particular fields": every `field: message` code span of the first column. */
export function particularFieldErrors(markdown: string): Listed[] {
  return tableAfter(PAGE, markdown, '### Messages of particular fields').flatMap(({ line, cells }) =>
    codeSpans(cells[0])
      .filter((span) => span.includes(': '))
      .map((message) => ({ line, code: null, message })),
  );
}

/** The pairs the page says no request is answered with. */
export function notAnswered(markdown: string): Listed[] {
  return tableAfter(PAGE, markdown, "## A code of the API's list the gateway does not answer").map(({ line, cells }) => ({
    line,
    code: cells[0],
    message: codeSpans(cells[1])[0],
  }));
}

/**
 * A listed message as a pattern over source text: placeholders (`<…>`, `N`, `MIN`, `MAX`, `…`)
 * match any text; a `"` may be escaped in the source.
 */
export function messagePattern(message: string): RegExp {
  const parts = message.split(/<[^>]+>|…|\b(?:N|MIN|MAX)\b/);
  const literal = parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/"/g, '\\\\?"'));
  return new RegExp(literal.join('.+?'));
}

interface Source {
  path: string;
  lines: string[];
}

function sourcesUnder(dir: string, skip: (path: string) => boolean): Source[] {
  const out: Source[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(join(REPO_ROOT, d)).sort()) {
      const path = join(d, name);
      if (skip(path)) continue;
      if (statSync(join(REPO_ROOT, path)).isDirectory()) walk(path);
      else if (/\.(ts|js|cjs)$/.test(name)) out.push({ path: relative(REPO_ROOT, join(REPO_ROOT, path)), lines: readFileSync(join(REPO_ROOT, path), 'utf8').split('\n') });
    }
  };
  walk(dir);
  return out;
}

/** Where a test expects `listed`: a file and line holding the message, with its code near it; null when none does. */
export function expectedBy(listed: Listed, tests: Source[]): string | null {
  const pattern = messagePattern(listed.message);
  const code = listed.code === null ? null : new RegExp(`(?<![\\d.])${listed.code}(?![\\d.])`);
  for (const { path, lines } of tests) {
    for (let i = 0; i < lines.length; i++) {
      if (!pattern.test(lines[i])) continue;
      if (code === null) return `${path}:${i + 1}`;
      const near = lines.slice(Math.max(0, i - CODE_DISTANCE), i + CODE_DISTANCE + 1);
      if (near.some((text) => code.test(text))) return `${path}:${i + 1}`;
    }
  }
  return null;
}

describe('Docs: every error the reference lists is one a test expects', () => {
  const page = readDoc(PAGE);
  const tests = sourcesUnder('test', (path) => path === join('test', 'docs'));
  const listed = [...errorsByCode(page), ...adminErrors(page), ...particularFieldErrors(page)];

  it('Given the page, then its tables are read: every code of the errors-by-code table, the admin errors, the field errors', () => {
    const codes = new Set(errorsByCode(page).map((e) => e.code));
    for (const code of ['0', '100000', '101000', '204005', '204006', '204011', '204018', '205005', '208003', '210002', '220002', '250003', '401', '429', '503', '500']) {
      expect(codes, code).to.include(code);
    }
    expect(adminErrors(page).map((e) => e.message)).to.include('Callback delivery not found.');
    expect(particularFieldErrors(page).map((e) => e.message)).to.include('card_number: This value is not a valid card number.');
  });

  it('When the test suite is searched for each listed code and message, then a test expects every one of them', () => {
    const unexpected = listed.filter((e) => expectedBy(e, tests) === null).map((e) => `${PAGE}:${e.line} ${e.code ?? '(field error)'} ${e.message}`);
    expect(unexpected, `listed, but no test expects it:\n${unexpected.join('\n')}`).to.deep.equal([]);
  });

  it('Given the pair the page says the gateway does not answer, then no source of the gateway produces it', () => {
    const gateway = sourcesUnder('src', () => false);
    const rows = notAnswered(page);
    expect(rows.map((r) => r.message)).to.deep.equal(['This value is not correct.', 'referenced with the settled requirement']);
    for (const row of rows) expect(expectedBy({ ...row, code: null }, gateway), row.message).to.equal(null);
  });

  describe('the checker itself', () => {
    const source = (lines: string[]): Source[] => [{ path: 'test/x.test.ts', lines }];

    it('Given a message with placeholders, then they match any text and the rest matches exactly', () => {
      expect(messagePattern('<amount field>: Amount is too large').test("'order_amount: Amount is too large'")).to.equal(true);
      expect(messagePattern('methods[<i>]: The payment method "<m>" is not available.').test(`'methods[1]: The payment method \\"x\\" is not available.'`)).to.equal(true);
      expect(messagePattern('This value should be N or more.').test('This value should be 1 or more.')).to.equal(true);
      expect(messagePattern('Hash is not valid').test('Hash is invalid')).to.equal(false);
    });

    it('Given a test stating the message, then its code must be near it: far away, or another code, does not count', () => {
      const listedPair = { line: 1, code: '204018', message: 'Payment digital wallet not supported' };
      expect(expectedBy(listedPair, source(["expect(body).to.deep.equal({ error_code: 204018, error_message: 'Payment digital wallet not supported' });"]))).to.equal('test/x.test.ts:1');
      expect(expectedBy(listedPair, source(["error_code: 2040180, error_message: 'Payment digital wallet not supported'"]))).to.equal(null);
      expect(expectedBy(listedPair, source(['204018', ...Array(20).fill(''), "'Payment digital wallet not supported'"]))).to.equal(null);
      expect(expectedBy(listedPair, source(["'Payment digital wallet is not supported', 204018"]))).to.equal(null);
    });
  });
});
