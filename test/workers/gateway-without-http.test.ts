/**
 * The notifier's and the workers' threads, and the roles without HTTP, build a gateway for its
 * services and never serve its HTTP API: the app (every route, every request schema compiled) is
 * built the first time it is asked for, so they start faster and hold less memory.
 */
import { expect } from 'chai';
import Koa from 'koa';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sinon from 'sinon';
import type { Logger } from '../../src/application/ports/logger';
import { buildGateway, type Gateway } from '../../src/composition';
import { loadConfig } from '../../src/config';

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('a gateway that serves no HTTP', () => {
  let dataDir = '';
  let gateway: Gateway | undefined;

  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'gw-no-http-'));
  });

  afterEach(async () => {
    sinon.restore();
    await gateway?.close();
    gateway = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('Given a gateway built as the background threads build theirs, then no HTTP middleware is set up until its app is asked for, and then once', async () => {
    const use = sinon.spy(Koa.prototype, 'use');
    const config = loadConfig({ DATA_DIR: dataDir, EVENT_STORE: 'sqlite', GATEWAY_ENV: 'sandbox', GATEWAY_LOG_LEVEL: 'silent', VAULT_KEY: randomBytes(32).toString('hex') });
    gateway = await buildGateway(config, { withProjector: false, logger: quiet });
    await gateway.notifier.start();
    await gateway.notifier.stop();
    expect(use.callCount, 'middleware set up by building the gateway and running its notifier').to.equal(0);

    const app = gateway.app;
    const setUp = use.callCount;
    expect(setUp).to.be.greaterThan(0);
    expect(gateway.app).to.equal(app);
    expect(use.callCount, 'asking again builds nothing more').to.equal(setUp);
  });
});
