#!/usr/bin/env node
'use strict';
/**
 * Starts the gateway and its CLI from JavaScript compiled into dist/, so a command starts in a
 * fraction of a second instead of loading a TypeScript compiler first. `npm start` and
 * `npm run gateway` come through here:
 *
 *   node src/cli/launch.cjs main [args]   the gateway (dist/src/main.js)
 *   node src/cli/launch.cjs cli [args]    the CLI (dist/src/cli/index.js)
 *   node src/cli/launch.cjs build         compile src/ and projections/ into dist/ now
 *
 * dist/ is compiled again whenever the sources differ from what it was built from (a digest of
 * every source file, kept in dist/build-info.json), so it is never stale. Compiling is
 * transpiling only, the same transform tsx applies when the tests run the sources; types are
 * checked by `npm run typecheck`. Where dist/ cannot be written or no compiler is installed (a
 * read-only image), the sources run through tsx instead, as before.
 *
 * The compiled command runs in this very process whenever this process already has the node options
 * the command needs (command-node-flags.cjs): `npm start` passes the gateway's on its command line, and
 * most CLI commands need none. A signal sent to this process then reaches the gateway itself, which
 * stops cleanly. Otherwise (a command that needs other options, or no dist/) the command runs as a
 * child process that this one passes every signal on to.
 *
 * Run by an npm script, this process is the child of the shell npm started (`sh -c`): npm passes a
 * signal on to that shell only, the shell ends and this process would carry on with no one to stop it.
 * So when its parent goes away, it stops as if it had received SIGTERM itself.
 *
 * Plain JavaScript on purpose: it has to run before anything is compiled. It lives in src/ so that
 * whatever ships the sources ships it too.
 */
const { spawn } = require('node:child_process');
const path = require('node:path');
const { gatewayNodeFlags, nodeFlagsFor } = require('./command-node-flags.cjs');

const { ROOT, ensureBuilt } = require('../adapters/os/dist-build.cjs');
const ENTRIES = {
  main: { js: 'dist/src/main.js', ts: 'src/main.ts' },
  cli: { js: 'dist/src/cli/index.js', ts: 'src/cli/index.ts' },
};

/** Runs the compiled `file` in this process, as `node file args` would. */
function runHere(file, args) {
  process.argv = [process.execPath, file, ...args];
  require(file).start();
}

/**
 * Stops this process as SIGTERM would once its parent has gone: under npm, the parent is the shell
 * that npm runs the script with, and it ends on the signal npm passes on to it.
 */
function stopWhenParentExits() {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, 200);
  timer.unref();
}

/** Runs `file` as its own process, passing signals on and exiting as it exits. */
function runChild(args) {
  const child = spawn(process.execPath, args, { stdio: 'inherit' });
  const forward = (signal) => () => child.kill(signal);
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const handlers = signals.map((signal) => [signal, forward(signal)]);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  child.on('exit', (code, signal) => {
    for (const [s, handler] of handlers) process.off(s, handler);
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
}

function main(argv) {
  const [what, ...args] = argv;
  if (what === 'build') {
    process.exit(ensureBuilt({ force: true }) ? 0 : 1);
  }
  const entry = ENTRIES[what];
  if (!entry) {
    process.stderr.write('usage: node src/cli/launch.cjs main|cli [args...] | build\n');
    process.exit(2);
  }
  // The gateway and a few CLI commands get options of their own (command-node-flags.cjs).
  const nodeFlags = what === 'cli' ? nodeFlagsFor(args) : gatewayNodeFlags();
  if (process.env.npm_lifecycle_event) stopWhenParentExits();
  const built = ensureBuilt();
  if (built && nodeFlags.every((flag) => process.execArgv.includes(flag))) runHere(path.join(ROOT, entry.js), args);
  else if (built) runChild([...nodeFlags, path.join(ROOT, entry.js), ...args]);
  else runChild([...nodeFlags, '--import', 'tsx', path.join(ROOT, entry.ts), ...args]);
}

main(process.argv.slice(2));
