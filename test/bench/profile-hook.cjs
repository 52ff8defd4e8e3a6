/**
 * Preloaded (`--require`) into the gateway child only when the benchmark profiles it. The loader
 * compiles TypeScript to whitespace-minified JavaScript, so the line numbers in a CPU profile mean
 * nothing on their own; at exit this saves the source map of every loaded project module next to
 * the profile, for `profile-summary.ts` to map positions back to the .ts sources.
 * Needs `--enable-source-maps` so the maps are kept.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { findSourceMap } = require('node:module');

const dir = process.env.BENCH_CPU_PROF_DIR;
if (dir) {
  process.on('exit', () => {
    const maps = {};
    for (const file of Object.keys(require.cache)) {
      if (!/\.(c|m)?tsx?$/.test(file)) continue;
      const map = findSourceMap(file);
      if (!map) continue;
      const { sourcesContent, ...payload } = map.payload;
      maps[file] = payload;
    }
    try {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `sourcemaps-${process.pid}.json`), JSON.stringify(maps));
    } catch (error) {
      process.stderr.write(`profile hook: could not save source maps: ${error}\n`);
    }
  });
}
