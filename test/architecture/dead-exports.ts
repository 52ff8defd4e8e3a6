/**
 * Exports of `src/` and `projections/` that no other file uses, read with the project's TypeScript
 * compiler: every identifier of the project (tests included) is resolved to what it names, through
 * imports, re-exports and destructured dynamic imports.
 *
 * `npx tsx test/architecture/dead-exports.ts` prints two lists: exports nothing uses at all (dead
 * code), and exports only tests use, their own file not at all (dead too, unless what the test
 * checks through them is their reason to exist). Exports their own file uses are left out: there
 * `export` is at most the one thing too much.
 */
import path from 'node:path';
import ts from 'typescript';
import { MEASURED_DIRS } from './figures';

const ROOT = path.resolve(__dirname, '../..');
const relative = (file: string): string => path.relative(ROOT, file).split(path.sep).join('/');
const measured = (file: string): boolean => MEASURED_DIRS.some((dir) => relative(file).startsWith(`${dir}/`));

function program(): ts.Program {
  const read = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, ROOT);
  return ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
}

/** What `node` names, aliases followed to the declaration; a destructured `await import()` names the export. */
function targetOf(checker: ts.TypeChecker, node: ts.Identifier): ts.Symbol | undefined {
  let symbol = checker.getSymbolAtLocation(node);
  const parent = node.parent;
  if (ts.isBindingElement(parent) && ts.isObjectBindingPattern(parent.parent) && (parent.propertyName ?? parent.name) === node) {
    symbol = checker.getTypeAtLocation(parent.parent).getProperty(node.text) ?? symbol;
  }
  while (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  return symbol;
}

export interface UnusedExport {
  file: string;
  name: string;
  /** The tests that use it, when only tests do. */
  tests: string[];
}

export function unusedExports(): UnusedExport[] {
  const checked = program();
  const checker = checked.getTypeChecker();
  const sources = checked.getSourceFiles().filter((source) => !source.isDeclarationFile && !relative(source.fileName).startsWith('node_modules/'));
  const users = new Map<ts.Symbol, Set<string>>();
  for (const source of sources) {
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node)) {
        const symbol = targetOf(checker, node);
        if (symbol) users.set(symbol, (users.get(symbol) ?? new Set()).add(source.fileName));
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  const unused: UnusedExport[] = [];
  for (const source of sources.filter((s) => measured(s.fileName))) {
    const module = checker.getSymbolAtLocation(source);
    for (const exported of module ? checker.getExportsOfModule(module) : []) {
      let symbol = exported;
      while (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      // A re-export is judged where it is declared.
      if (symbol.declarations?.[0]?.getSourceFile() !== source) continue;
      const elsewhere = [...(users.get(symbol) ?? [])].filter((file) => file !== source.fileName).map(relative);
      if (elsewhere.some((file) => !file.startsWith('test/'))) continue;
      if (countUses(source, checker, symbol) > (symbol.declarations?.length ?? 1)) continue;
      unused.push({ file: relative(source.fileName), name: exported.name, tests: elsewhere });
    }
  }
  return unused;
}

function countUses(source: ts.SourceFile, checker: ts.TypeChecker, symbol: ts.Symbol): number {
  let count = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && targetOf(checker, node) === symbol) count += 1;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return count;
}

if (require.main === module) {
  const unused = unusedExports();
  const show = (list: UnusedExport[]) => list.map((u) => `  ${u.file}  ${u.name}${u.tests.length ? `  (${u.tests.join(', ')})` : ''}`).join('\n');
  console.log(`exports nothing uses:\n${show(unused.filter((u) => u.tests.length === 0))}`);
  console.log(`\nexports only tests use:\n${show(unused.filter((u) => u.tests.length > 0))}`);
}
