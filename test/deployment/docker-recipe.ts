/**
 * Just enough of a Dockerfile and .dockerignore reader for tests that check the image's recipe
 * without a Docker engine: instructions grouped by build stage, and .dockerignore matching with
 * Docker's rules (`*`, `?`, `**`, `!` exceptions, a matched directory excluding all it holds).
 */

export interface Instruction {
  keyword: string;
  /** Everything after the keyword, continuation lines joined. */
  args: string;
}

export interface Stage {
  name: string | null;
  base: string;
  instructions: Instruction[];
}

export function parseDockerfile(text: string): Stage[] {
  const logical: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    // Comment lines may sit inside a continued instruction; parser directives are comments too.
    if (line.startsWith('#') || (line === '' && !pending)) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    logical.push(`${pending}${line}`.trim());
    pending = '';
  }
  if (pending.trim()) logical.push(pending.trim());

  const stages: Stage[] = [];
  for (const line of logical.filter(Boolean)) {
    const [, keyword, args] = /^(\S+)\s*(.*)$/.exec(line)!;
    const upper = keyword.toUpperCase();
    if (upper === 'ARG' && stages.length === 0) continue;
    if (upper === 'FROM') {
      const m = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      if (!m) throw new Error(`cannot read FROM ${args}`);
      stages.push({ base: m[1], name: m[2] ?? null, instructions: [] });
      continue;
    }
    if (stages.length === 0) throw new Error(`${upper} before any FROM`);
    stages[stages.length - 1].instructions.push({ keyword: upper, args });
  }
  return stages;
}

export interface Copy {
  from: string | null;
  sources: string[];
  destination: string;
}

/** A COPY or ADD: its `--from`, its sources and its destination (JSON or plain form). */
export function copyOf(instruction: Instruction): Copy {
  let rest = instruction.args;
  let from: string | null = null;
  for (;;) {
    const flag = /^--([a-z-]+)(?:=(\S+))?\s+/.exec(rest);
    if (!flag) break;
    if (flag[1] === 'from') from = flag[2] ?? null;
    rest = rest.slice(flag[0].length);
  }
  const parts: string[] = rest.startsWith('[') ? JSON.parse(rest) : rest.split(/\s+/);
  return { from, sources: parts.slice(0, -1), destination: parts[parts.length - 1] };
}

/** The words of a CMD, ENTRYPOINT or RUN in exec form (JSON), or its shell text split on spaces. */
export function wordsOf(args: string): string[] {
  return args.startsWith('[') ? JSON.parse(args) : args.split(/\s+/);
}

function patternRegex(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      i += 1;
      if (pattern[i + 1] === '/') {
        i += 1;
        re += '(?:.*/)?';
      } else re += '.*';
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** The patterns of a .dockerignore, comments and blank lines left out, in order. */
export function parseDockerignore(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const negated = l.startsWith('!');
      const body = (negated ? l.slice(1) : l).trim().replace(/^\/+/, '').replace(/\/+$/, '');
      return negated ? `!${body}` : body;
    });
}

/** Whether Docker leaves `path` (relative to the build context) out of the context. */
export function isIgnored(path: string, patterns: string[]): boolean {
  const parts = path.replace(/^\.\//, '').split('/');
  const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  let ignored = false;
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!');
    const re = patternRegex(negated ? pattern.slice(1) : pattern);
    if (prefixes.some((p) => re.test(p))) ignored = !negated;
  }
  return ignored;
}
