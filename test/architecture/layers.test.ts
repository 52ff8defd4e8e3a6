/**
 * The layers, as the import lines of every source file state them:
 *
 * - src/domain: pure rules, importing no other layer;
 * - src/application: use cases, reaching the outside only through src/application/ports;
 * - src/adapters: the outside world behind the ports, importing the domain and the ports, never a use case;
 * - src/api: HTTP, reading read models through the ports, never through projections/ or adapters;
 * - projections/: read models, built from domain events and implementing application ports.
 *
 * The composition root (src/composition.ts, each bounded context's wiring in src/composition/, the
 * HTTP API's in src/gateway-http.ts) is the one place that connects ports to adapters and
 * projections; the workers, the CLI and the server are outer code like it.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { measure } from './figures';

const ROOT = path.resolve(__dirname, '../..');

/** Every module specifier a file imports or re-exports, statically or dynamically. */
export function importedSpecifiers(source: string): string[] {
  const specifiers: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm,
    /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) specifiers.push(match[1]);
  return specifiers;
}

/** Repository-relative path (without extension) a relative specifier of `file` points at; null for packages. */
function target(file: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  return path.relative(ROOT, path.resolve(path.dirname(file), specifier)).split(path.sep).join('/');
}

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) files.push(...sourceFiles(relative));
    else if (entry.name.endsWith('.ts')) files.push(relative);
  }
  return files;
}

interface Edge {
  from: string;
  to: string;
}

function importsOf(dir: string): Edge[] {
  return sourceFiles(dir).flatMap((from) =>
    importedSpecifiers(readFileSync(path.join(ROOT, from), 'utf8'))
      .map((specifier) => target(path.join(ROOT, from), specifier))
      .filter((to): to is string => to !== null)
      .map((to) => ({ from, to })),
  );
}

const under = (prefix: string) => (p: string) => p === prefix || p.startsWith(`${prefix}/`);

/**
 * Imports that break a rule for a stated reason, each to be removed with its reason. Listed by
 * importing file and imported module.
 */
const ALLOWED: ReadonlyArray<Edge & { why: string }> = [
  {
    from: 'projections/database.ts',
    to: 'src/adapters/postgres/survive-connection-loss',
    why: 'the read-model pool is opened with the same connection-loss handling as every other pool',
  },
  {
    from: 'projections/report-connection.ts',
    to: 'src/adapters/os/linux-threads',
    why: 'the report thread names itself like every thread the gateway starts, so operators can tell its CPU time apart',
  },
  {
    from: 'projections/report-connection.ts',
    to: 'src/adapters/os/module-thread',
    why: 'the report thread is started like every thread the gateway starts, with the TypeScript loader when run from the sources',
  },
  {
    from: 'src/api/sandbox-simulator/routes.ts',
    to: 'src/adapters/connectors/sandbox/transformers',
    why: "the sandbox acquirer's own pages speak its wire (signed PaReq, signed links): they stand where its site would",
  },
];

const allowed = (edge: Edge) => ALLOWED.some((a) => a.from === edge.from && a.to === edge.to);

function violations(dir: string, forbidden: (to: string, from: string) => boolean): string[] {
  return importsOf(dir)
    .filter((edge) => forbidden(edge.to, edge.from) && !allowed(edge))
    .map((edge) => `${edge.from} imports ${edge.to}`);
}

describe('layers', function () {
  describe('reading import lines', function () {
    it('Given imports, re-exports, type imports, multi-line imports, require and dynamic import, then every specifier is found', function () {
      const source = [
        "import { a } from './a';",
        "import type { B } from '../b';",
        'import {',
        '  c,',
        '  d,',
        "} from './c';",
        "export { e } from './e';",
        "export * from './f';",
        "import './g';",
        "const h = require('./h');",
        "const i = await import('../i');",
        "const text = 'from here';",
      ].join('\n');
      expect(importedSpecifiers(source)).to.have.members(['./a', '../b', './c', './e', './f', './g', './h', '../i']);
    });
  });

  it('Given src/domain, then it imports nothing from the application, adapters, API, CLI, workers or projections', function () {
    const outer = ['src/application', 'src/adapters', 'src/api', 'src/cli', 'src/workers', 'src/composition', 'src/gateway-http', 'src/storage-targets', 'src/server', 'projections'];
    expect(violations('src/domain', (to) => outer.some((prefix) => under(prefix)(to)))).to.deep.equal([]);
  });

  it('Given src/application, then it imports nothing from adapters, the API, the CLI, workers or projections', function () {
    const outer = ['src/adapters', 'src/api', 'src/cli', 'src/workers', 'src/composition', 'src/gateway-http', 'src/storage-targets', 'src/server', 'projections'];
    expect(violations('src/application', (to) => outer.some((prefix) => under(prefix)(to)))).to.deep.equal([]);
  });

  it('Given src/adapters, then they import only the domain, the application ports and each other, never a use case', function () {
    const permitted = ['src/adapters', 'src/domain', 'src/application/ports'];
    expect(violations('src/adapters', (to) => !permitted.some((prefix) => under(prefix)(to)))).to.deep.equal([]);
  });

  it('Given src/api, then it reads read models through ports, never projections, and uses no adapter (but the sandbox simulator the sandbox connector)', function () {
    const forbidden = (to: string, from: string) => {
      if (under('projections')(to)) return true;
      if (!under('src/adapters')(to)) return false;
      return !(under('src/api/sandbox-simulator')(from) && under('src/adapters/connectors')(to));
    };
    expect(violations('src/api', forbidden)).to.deep.equal([]);
  });

  it('Given projections, then they import only the domain, the application ports and each other', function () {
    const permitted = ['projections', 'src/domain', 'src/application/ports'];
    expect(violations('projections', (to) => !permitted.some((prefix) => under(prefix)(to)))).to.deep.equal([]);
  });

  it('Given src/ and projections/, then no file imports itself back through others (type imports included)', function () {
    // Every file is parsed by the compiler: seconds, more on a busy machine.
    this.timeout(60_000);
    expect(measure().cycles.map((cycle) => cycle.join(' <-> '))).to.deep.equal([]);
  });

  it('Given the stated exceptions, then each one still exists (a removed import takes its exception with it)', function () {
    const edges = [...importsOf('projections'), ...importsOf('src')];
    const stale = ALLOWED.filter((a) => !edges.some((e) => e.from === a.from && e.to === a.to)).map((a) => `${a.from} -> ${a.to}`);
    expect(stale).to.deep.equal([]);
  });
});
