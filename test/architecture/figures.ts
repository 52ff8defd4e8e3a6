/**
 * The size figures of `src/` and `projections/`, read with the project's TypeScript compiler: lines
 * per file, functions and classes over their limits, and import cycles (type imports included).
 *
 * `npx tsx test/architecture/figures.ts` prints them; `test/architecture/figures.test.ts` holds the
 * limits.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../..');
export const MEASURED_DIRS = ['src', 'projections'];

export interface Span {
  file: string;
  name: string;
  lines: number;
}

export interface Figures {
  files: Span[];
  functions: Span[];
  classes: Span[];
  cycles: string[][];
}

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) files.push(...sourceFiles(relative));
    else if (/\.(ts|cjs|mjs|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(relative);
  }
  return files;
}

const linesOf = (source: ts.SourceFile, node: ts.Node): number =>
  source.getLineAndCharacterOfPosition(node.getEnd()).line - source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;

function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText(source);
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))) {
    return parent.name.getText(source);
  }
  return `(anonymous, line ${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1})`;
}

function resolveImport(from: string, specifier: string, known: Set<string>): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, from)), specifier)).split(path.sep).join('/');
  const stripped = base.replace(/\.(js|ts|cjs|mjs)$/, '');
  for (const candidate of [base, `${stripped}.ts`, `${stripped}.cjs`, `${stripped}.js`, `${stripped}/index.ts`]) {
    if (known.has(candidate)) return candidate;
  }
  return null;
}

function importsOf(source: ts.SourceFile): string[] {
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0])) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require')) {
        specifiers.push((node.arguments[0] as ts.StringLiteral).text);
      }
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      specifiers.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers;
}

/** Strongly connected components of more than one file, or a file importing itself. */
function cyclesOf(edges: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (file: string): void => {
    indices.set(file, index);
    low.set(file, index);
    index += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!indices.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, indices.get(next)!));
      }
    }
    if (low.get(file) === indices.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || (edges.get(file) ?? []).includes(file)) components.push(component.sort());
    }
  };
  for (const file of edges.keys()) if (!indices.has(file)) connect(file);
  return components;
}

export function measure(dirs: string[] = MEASURED_DIRS): Figures {
  const files = dirs.flatMap(sourceFiles);
  const known = new Set(files);
  const figures: Figures = { files: [], functions: [], classes: [], cycles: [] };
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
    figures.files.push({ file, name: file, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) });
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body) {
        figures.functions.push({ file, name: nameOf(node, source), lines: linesOf(source, node) });
      } else if (ts.isClassLike(node)) {
        figures.classes.push({ file, name: nameOf(node, source), lines: linesOf(source, node) });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    edges.set(file, importsOf(source).map((s) => resolveImport(file, s, known)).filter((t): t is string => t !== null));
  }
  figures.cycles = cyclesOf(edges);
  return figures;
}

export const LIMITS = { fileLines: 500, functionLines: 80, functionsOverLimit: 5, classLines: 400 };

if (require.main === module) {
  const figures = measure();
  const over = (spans: Span[], limit: number) => spans.filter((s) => s.lines > limit).sort((a, b) => b.lines - a.lines);
  const show = (spans: Span[]) => spans.map((s) => `  ${String(s.lines).padStart(5)}  ${s.file}  ${s.name === s.file ? '' : s.name}`).join('\n');
  const totalLines = figures.files.reduce((sum, f) => sum + f.lines, 0);
  console.log(`${figures.files.length} files, ${totalLines} lines in ${MEASURED_DIRS.join(' and ')}`);
  console.log(`\nfiles over ${LIMITS.fileLines} lines:\n${show(over(figures.files, LIMITS.fileLines))}`);
  console.log(`\nfunctions over ${LIMITS.functionLines} lines (at most ${LIMITS.functionsOverLimit} allowed):\n${show(over(figures.functions, LIMITS.functionLines))}`);
  console.log(`\nclasses over ${LIMITS.classLines} lines:\n${show(over(figures.classes, LIMITS.classLines))}`);
  console.log(`\nimport cycles:\n${figures.cycles.map((c) => `  ${c.join(' <-> ')}`).join('\n')}`);
}
