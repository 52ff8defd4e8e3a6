'use strict';
/**
 * dist/: the JavaScript compiled from src/ and projections/, and whether it was compiled from the
 * sources as they are now (a digest of every source file, kept in dist/build-info.json). The
 * launcher (src/cli/launch.cjs) builds it before it runs a command; a thread started from the
 * TypeScript sources runs its compiled twin when it is current (module-thread.ts).
 *
 * Plain JavaScript on purpose: it has to run before anything is compiled.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../../..');
const DIST = path.join(ROOT, 'dist');
const INFO = path.join(DIST, 'build-info.json');
const SOURCE_DIRS = ['src', 'projections'];
/** Files whose change changes the output. */
const BUILD_INPUTS = ['tsconfig.json', 'package.json'];

function sourceFiles() {
  const out = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (/\.(ts|cjs|js|json)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(rel);
    }
  };
  for (const dir of SOURCE_DIRS) walk(dir);
  return out.sort();
}

/** A digest of every input: what dist/ was built from, whatever the files' times say. */
function sourceDigest(files) {
  const hash = crypto.createHash('sha256');
  for (const rel of [...files, ...BUILD_INPUTS]) {
    hash.update(rel).update('\0');
    try {
      hash.update(fs.readFileSync(path.join(ROOT, rel)));
    } catch {
      hash.update('(missing)');
    }
    hash.update('\0');
  }
  return hash.digest('hex');
}

function builtDigest() {
  try {
    return JSON.parse(fs.readFileSync(INFO, 'utf8')).sourceDigest;
  } catch {
    return null;
  }
}

/**
 * Compiles into a fresh directory and swaps it in, so a process starting meanwhile never loads a
 * half-written dist/. Throws when it cannot (no compiler, read-only directory).
 */
function build(files, digest) {
  const esbuild = require('esbuild');
  const staging = `${DIST}.building-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  try {
    esbuild.buildSync({
      entryPoints: files.filter((f) => f.endsWith('.ts')).map((f) => path.join(ROOT, f)),
      outdir: staging,
      outbase: ROOT,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      sourcemap: true,
      tsconfig: path.join(ROOT, 'tsconfig.json'),
      // `await import('./x')` becomes a require, as TypeScript's CommonJS output has it.
      supported: { 'dynamic-import': false },
      logLevel: 'error',
    });
    for (const rel of files.filter((f) => !f.endsWith('.ts'))) {
      fs.mkdirSync(path.dirname(path.join(staging, rel)), { recursive: true });
      fs.copyFileSync(path.join(ROOT, rel), path.join(staging, rel));
    }
    fs.writeFileSync(path.join(staging, 'build-info.json'), `${JSON.stringify({ sourceDigest: digest, builtAt: new Date().toISOString() }, null, 2)}\n`);
    const old = `${DIST}.old-${process.pid}`;
    if (fs.existsSync(DIST)) fs.renameSync(DIST, old);
    fs.renameSync(staging, DIST);
    fs.rmSync(old, { recursive: true, force: true });
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Builds when dist/ is missing or stale; false when it cannot be built here. */
function ensureBuilt({ force = false, quiet = false } = {}) {
  const files = sourceFiles();
  const digest = sourceDigest(files);
  if (!force && builtDigest() === digest) return true;
  try {
    const started = Date.now();
    if (!quiet) process.stderr.write('Compiling src/ into dist/ (the sources changed since the last build)...');
    build(files, digest);
    if (!quiet) process.stderr.write(` done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    return true;
  } catch (error) {
    if (!quiet) process.stderr.write(` not possible here (${error.code || error.message}); running the sources through tsx\n`);
    return false;
  }
}

let currentAtStart = null;

/**
 * Whether dist/ holds the compiled sources as they are now. Read once per process: the sources do
 * not change under a running process, and the digest reads every file.
 */
function distIsCurrent() {
  if (currentAtStart === null) currentAtStart = builtDigest() === sourceDigest(sourceFiles());
  return currentAtStart;
}

/**
 * The compiled twin of a source file under src/ or projections/ (`src/a/b.ts` -> `dist/src/a/b.js`);
 * null for any other file (a test's own thread module), which dist/ does not hold.
 */
function compiledTwin(sourceFile) {
  const rel = path.relative(ROOT, sourceFile).split(path.sep).join('/');
  if (!SOURCE_DIRS.some((dir) => rel.startsWith(`${dir}/`))) return null;
  return path.join(DIST, rel.replace(/\.ts$/, '.js'));
}

module.exports = { ROOT, ensureBuilt, distIsCurrent, compiledTwin };
