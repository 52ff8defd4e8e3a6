/**
 * What a thread loads when it starts is what it pays for at every start of the gateway, in CPU and
 * in memory, once per thread. The projector's, the notifier's and the workers' threads need the
 * event store and the read models, not the HTTP stack; no process loads the EventStoreDB client
 * unless that store is configured.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** The packages among `packages` that requiring `modulePath` (from the repository root) loads, in a fresh process. */
function packagesLoadedBy(modulePath: string, packages: string[]): string[] {
  const script = `
    require(${JSON.stringify(modulePath)});
    const loaded = Object.keys(require.cache);
    const names = ${JSON.stringify(packages)};
    process.stdout.write(JSON.stringify(names.filter((name) => loaded.some((file) => file.includes('/node_modules/' + name + '/')))));
  `;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  expect(child.status, child.stderr).to.equal(0);
  return JSON.parse(child.stdout) as string[];
}

describe('what a thread loads at start', function () {
  this.timeout(60_000);

  it("Given the projector's thread, when its module is loaded, then neither the HTTP stack nor the EventStoreDB client comes with it", () => {
    expect(packagesLoadedBy('./src/workers/projector-thread.ts', ['koa', 'koa-body', '@koa/router', 'ajv', '@eventstore/db-client', 'kysely'])).to.deep.equal(['kysely']);
  });

  it("Given the notifier's and the workers' threads, when their module is loaded, then neither the HTTP stack nor the EventStoreDB client comes with it", () => {
    expect(packagesLoadedBy('./src/workers/background-thread.ts', ['koa', 'koa-body', '@koa/router', 'ajv', '@eventstore/db-client', 'kysely'])).to.deep.equal(['kysely']);
  });
});
