/**
 * What the deployment tests read from the repository: files, the CLI's process roles, the
 * environment variables the gateway reads, and the npm scripts the image runs.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../..');

export const readRepoFile = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
export const repoHas = (path: string): boolean => existsSync(join(ROOT, path));

/** The roles `npm run gateway -- <role>` accepts: the `Role` type of src/server.ts. */
export function cliRoles(): string[] {
  const m = /export type Role\s*=\s*([^;]+);/.exec(readRepoFile('src/server.ts'));
  if (!m) throw new Error('src/server.ts no longer declares `export type Role`');
  return [...m[1].matchAll(/'([a-z-]+)'/g)].map((r) => r[1]);
}

/** The roles that open the HTTP listener (src/server.ts: `role === 'all' || role === 'api'`). */
export const HTTP_ROLES = ['all', 'api'];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Every environment variable the gateway reads: `env.NAME` in src/config.ts, `process.env.NAME` anywhere. */
export function environmentVariablesRead(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles('src')) {
    for (const m of readRepoFile(file).matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b|\benv\[['"]([A-Z][A-Z0-9_]*)['"]\]/g)) names.add(m[1] ?? m[2]);
  }
  return names;
}

export interface PackageJson {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

export const packageJson = (): PackageJson => JSON.parse(readRepoFile('package.json'));

/** The command names a production dependency puts in node_modules/.bin. */
export function productionBins(): Map<string, string> {
  const bins = new Map<string, string>();
  for (const dep of Object.keys(packageJson().dependencies)) {
    const manifest = JSON.parse(readRepoFile(`node_modules/${dep}/package.json`)) as { name: string; bin?: string | Record<string, string> };
    if (typeof manifest.bin === 'string') bins.set(manifest.name.split('/').pop()!, dep);
    else for (const name of Object.keys(manifest.bin ?? {})) bins.set(name, dep);
  }
  return bins;
}
