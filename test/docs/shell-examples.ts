/**
 * The docs' shell examples as a script, and their documented answers as checks (README.md, "Examples
 * in the docs"). Every ```sh block of a page runs, in order, in one shell session, unless the line
 * before it is `<!-- example: not run, <why> -->`. A command's documented answer is a comment that
 * starts with `{` or `[` (on the command's line or on the next), or a ```json block after the sh
 * block, which is its first answer. In a documented answer `...` (or `…`) among the fields allows
 * more fields, and inside a string any text; `<name>` inside a string is any value; a UUID or a
 * `YYYY-MM-DD HH:MM:SS` time stands for any of its shape. Anything else must be equal.
 */
import { proseLines } from './markdown';

export const NOT_RUN = /^<!--\s*example:\s*not run,\s*(\S.*?)\s*-->$/;

export interface ShellBlock {
  /** Line of the opening fence, from 1. */
  line: number;
  body: string[];
  /** Why it is not run, when it is marked so. */
  notRun: string | null;
  /** The ```json block right after it (no other fenced block between), if any. */
  answer: { line: number; text: string } | null;
}

/** The ```sh blocks of a page, with their markers and following ```json answers. */
export function shellBlocks(markdown: string): ShellBlock[] {
  const lines = markdown.split('\n');
  const out: ShellBlock[] = [];
  let last: ShellBlock | null = null;
  for (let i = 0; i < lines.length; i++) {
    const fence = /^\s*```(\S*)\s*$/.exec(lines[i]);
    if (!fence) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    const info = fence[1];
    if (info === 'sh') {
      const before = lines.slice(0, start).reverse().find((l) => l.trim() !== '') ?? '';
      last = { line: start + 1, body: dedent(body), notRun: NOT_RUN.exec(before.trim())?.[1] ?? null, answer: null };
      out.push(last);
    } else {
      if (info === 'json' && last && last.answer === null && last.notRun === null) last.answer = { line: start + 2, text: body.join('\n') };
      last = null;
    }
  }
  return out;
}

function dedent(body: string[]): string[] {
  const indent = Math.min(...body.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length));
  return body.map((l) => l.slice(Number.isFinite(indent) ? indent : 0));
}

export interface Expectation {
  id: number;
  /** `page:line` of the documented answer. */
  where: string;
  text: string;
}

/**
 * One page's runnable blocks as one script. After each documented answer's command the script
 * prints `@@answer <id>`, and before each block `@@block <line>`, so the output can be cut into the
 * answers of the commands the page documents.
 */
export function pageScript(page: string, markdown: string): { script: string; expectations: Expectation[] } {
  const expectations: Expectation[] = [];
  const out: string[] = [];
  const expect = (line: number, text: string) => {
    const id = expectations.length;
    expectations.push({ id, where: `${page}:${line}`, text });
    out.push(`printf '\\n@@answer ${id}\\n'`);
  };
  for (const block of shellBlocks(markdown)) {
    if (block.notRun !== null) continue;
    out.push(`printf '\\n@@block ${block.line}\\n'`);
    block.body.forEach((text, i) => {
      const line = block.line + 1 + i;
      const own = /^\s*#\s*([[{].*)$/.exec(text);
      if (own) return expect(line, own[1]);
      out.push(text);
      const trailing = /\s#\s*([[{].*)$/.exec(text);
      if (trailing && !/\\$/.test(text)) expect(line, trailing[1]);
    });
    if (block.answer) expect(block.answer.line, block.answer.text);
  }
  return { script: out.join('\n') + '\n', expectations };
}

/** The output cut at the markers: the lines printed before each `@@answer <id>` since the marker before it. */
export function answersOf(output: string): Map<number, string[]> {
  const answers = new Map<number, string[]>();
  let current: string[] = [];
  for (const line of output.split('\n')) {
    const marker = /^@@(answer|block) (\d+)$/.exec(line);
    if (!marker) {
      current.push(line);
      continue;
    }
    if (marker[1] === 'answer') answers.set(Number(marker[2]), current);
    current = [];
  }
  return answers;
}

/** The JSON objects among lines of output. */
export function jsonAnswers(lines: string[]): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const line of lines) {
    const text = line.trim();
    if (!text.startsWith('{')) continue;
    try {
      out.push(JSON.parse(text) as Record<string, unknown>);
    } catch {
      // Not an answer.
    }
  }
  return out;
}

const MORE = '@@more';

/** A documented answer as a pattern: JSON once its `...` members are marked. */
export function parseDocumented(text: string): unknown {
  const marked = text
    .replace(/…/g, '...')
    .replace(/,\s*\.\.\.\s*\]/g, `,"${MORE}"]`)
    .replace(/\[\s*\.\.\.\s*\]/g, `["${MORE}"]`)
    .replace(/([{,])\s*\.\.\.\s*(?=[,}])/g, `$1"${MORE}":true`);
  return JSON.parse(marked);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** Where `actual` differs from the documented pattern, as `path: why`; empty when it matches. */
export function mismatches(pattern: unknown, actual: unknown, path = '$'): string[] {
  if (typeof pattern === 'string') {
    if (typeof actual !== 'string') return [`${path}: expected a string like ${JSON.stringify(pattern)}, got ${JSON.stringify(actual)}`];
    const wild = pattern.replace(/…/g, '...');
    let ok: boolean;
    if (/\.\.\.|<[^<>]+>/.test(wild)) {
      const source = wild
        .split(/(\.\.\.|<[^<>]+>)/)
        .map((part) => (part === '...' || /^<[^<>]+>$/.test(part) ? '[\\s\\S]*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('');
      ok = new RegExp(`^${source}$`).test(actual);
    } else if (UUID.test(pattern)) ok = UUID.test(actual);
    else if (TIME.test(pattern)) ok = TIME.test(actual);
    else ok = pattern === actual;
    return ok ? [] : [`${path}: expected ${JSON.stringify(pattern)}, got ${JSON.stringify(actual)}`];
  }
  if (Array.isArray(pattern)) {
    if (!Array.isArray(actual)) return [`${path}: expected an array, got ${JSON.stringify(actual)}`];
    const open = pattern[pattern.length - 1] === MORE;
    const items = open ? pattern.slice(0, -1) : pattern;
    if (open ? actual.length < items.length : actual.length !== items.length) return [`${path}: expected ${items.length}${open ? ' or more' : ''} items, got ${actual.length}`];
    return items.flatMap((item, i) => mismatches(item, actual[i], `${path}[${i}]`));
  }
  if (pattern !== null && typeof pattern === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [`${path}: expected an object, got ${JSON.stringify(actual)}`];
    const expected = pattern as Record<string, unknown>;
    const got = actual as Record<string, unknown>;
    const problems: string[] = [];
    for (const [key, value] of Object.entries(expected)) {
      if (key === MORE) continue;
      if (!(key in got)) problems.push(`${path}.${key}: missing`);
      else problems.push(...mismatches(value, got[key], `${path}.${key}`));
    }
    if (!(MORE in expected)) for (const key of Object.keys(got)) if (!(key in expected)) problems.push(`${path}.${key}: not documented`);
    return problems;
  }
  return pattern === actual ? [] : [`${path}: expected ${JSON.stringify(pattern)}, got ${JSON.stringify(actual)}`];
}

/** Lines of prose that mark a block as not run, for the pages' own check that each says why. */
export function notRunMarkers(markdown: string): string[] {
  return proseLines(markdown)
    .map((l) => l.text.trim())
    .filter((t) => t.startsWith('<!-- example'));
}
