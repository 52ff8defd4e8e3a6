/**
 * Just enough Markdown for the docs tests: which lines are prose (not inside a fenced block), the
 * headings' anchors as GitHub makes them, the relative links, and fenced blocks by info string.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const REPO_ROOT = join(__dirname, '..', '..');

/** README.md and every Markdown file under docs/, as paths relative to the repository root. */
export function docFiles(): string[] {
  const out = ['README.md'];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(REPO_ROOT, dir)).sort()) {
      const path = join(dir, name);
      if (statSync(join(REPO_ROOT, path)).isDirectory()) walk(path);
      else if (name.endsWith('.md')) out.push(relative(REPO_ROOT, join(REPO_ROOT, path)));
    }
  };
  walk('docs');
  return out;
}

export function readDoc(path: string): string {
  return readFileSync(join(REPO_ROOT, path), 'utf8');
}

export interface ProseLine {
  number: number;
  text: string;
}

/** Lines outside fenced code blocks (``` or ~~~), numbered from 1. */
export function proseLines(markdown: string): ProseLine[] {
  const out: ProseLine[] = [];
  let fence: string | null = null;
  markdown.split('\n').forEach((text, i) => {
    const opener = /^\s{0,3}(`{3,}|~{3,})/.exec(text);
    if (fence === null && opener) {
      fence = opener[1];
      return;
    }
    if (fence !== null) {
      if (new RegExp(`^\\s{0,3}${fence[0]}{${fence.length},}\\s*$`).test(text)) fence = null;
      return;
    }
    out.push({ number: i + 1, text });
  });
  return out;
}

/** Inline code spans removed, so a link-shaped example inside backticks is not taken for a link. */
function withoutCodeSpans(text: string): string {
  return text.replace(/(`+)[\s\S]*?\1/g, '');
}

/** The text a heading renders: code spans keep their content, links their text, emphasis marks go. */
function headingText(raw: string): string {
  return raw
    .replace(/\s+#+\s*$/, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*\*|__|\*)/g, '')
    .trim();
}

/** GitHub's heading anchor: lower case, punctuation other than `-` and `_` dropped, spaces to `-`. */
export function githubSlug(text: string): string {
  return headingText(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Every heading's anchor in a document; repeated headings get `-1`, `-2`, … as on GitHub. */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*)$/.exec(text);
    if (!heading) continue;
    const base = githubSlug(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

export interface Link {
  line: number;
  target: string;
}

/** Inline links and images `[text](target)` outside code, with the target as written. */
export function linksOf(markdown: string): Link[] {
  const out: Link[] = [];
  for (const { number, text } of proseLines(markdown)) {
    for (const match of withoutCodeSpans(text).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      out.push({ line: number, target: match[1] });
    }
  }
  return out;
}

/** The bodies of fenced blocks whose info string is exactly `info`, with the line they start on. */
export function fencedBlocks(markdown: string, info: string): Array<{ line: number; body: string }> {
  const out: Array<{ line: number; body: string }> = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== '```' + info) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i].trim() !== '```'; i++) body.push(lines[i]);
    out.push({ line: start + 1, body: body.join('\n') });
  }
  return out;
}

/** The rows of the Markdown table that follows `heading` (up to the next heading), as cells. */
export function tableAfter(page: string, markdown: string, heading: string): Array<{ line: number; cells: string[] }> {
  const lines = proseLines(markdown);
  const start = lines.findIndex((l) => l.text.trim() === heading);
  if (start < 0) throw new Error(`${page}: no heading "${heading}"`);
  const rows: Array<{ line: number; cells: string[] }> = [];
  for (const { number, text } of lines.slice(start + 1)) {
    if (/^#{1,6}\s/.test(text)) break;
    if (!text.startsWith('|')) continue;
    const cells = splitRow(text);
    if (cells.every((c) => /^:?-+:?$/.test(c))) continue;
    rows.push({ line: number, cells });
  }
  return rows.slice(1); // the header row
}

/** Cells of a table row; a `|` inside a code span (`\|`) stays in its cell. */
function splitRow(text: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let inCode = false;
  const body = text.trim().replace(/^\|/, '').replace(/\|$/, '');
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\' && body[i + 1] === '|') {
      cell += '|';
      i++;
    } else if (c === '`') {
      inCode = !inCode;
      cell += c;
    } else if (c === '|' && !inCode) {
      cells.push(cell.trim());
      cell = '';
    } else cell += c;
  }
  cells.push(cell.trim());
  return cells;
}
