/**
 * Every line logged during a request's work carries its request id, however deep and however late
 * (after awaits, timers) the line is written; lines of other work do not.
 */
import { expect } from 'chai';
import { createJsonLogger } from '../../../src/adapters/logging/json-logger';
import { withLogFields } from '../../../src/adapters/logging/log-context';
import { createApp } from '../../../src/api/app';

const parse = (lines: string[]) => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('Request ids in the logs', function () {
  it('Given work run with a request id, then lines written after awaits and timers carry it, and lines outside do not', async () => {
    const lines: string[] = [];
    const logger = createJsonLogger('info', (line) => lines.push(line));
    await withLogFields({ requestId: 'req-1' }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      logger.info('deep inside');
      logger.warn('names its own', { requestId: 'explicit' });
    });
    logger.info('outside');
    expect(parse(lines).map((l) => [l.message, l.requestId])).to.deep.equal([
      ['deep inside', 'req-1'],
      ['names its own', 'explicit'],
      ['outside', undefined],
    ]);
  });

  it('Given two requests at once through the app, then each line names the request whose handler wrote it', async () => {
    const lines: string[] = [];
    const logger = createJsonLogger('info', (line) => lines.push(line));
    const app = createApp({
      logger,
      withLogFields,
      routes: [
        (router) =>
          router.get('/work', async (ctx) => {
            await new Promise((resolve) => setTimeout(resolve, Number(ctx.query.wait)));
            logger.info('handler', { wait: ctx.query.wait });
            ctx.body = { ok: true };
          }),
      ],
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      await Promise.all([
        fetch(`${base}/work?wait=30`, { headers: { 'X-Request-Id': 'slow' } }),
        fetch(`${base}/work?wait=1`, { headers: { 'X-Request-Id': 'fast' } }),
      ]);
    } finally {
      server.close();
    }
    const handlerLines = parse(lines).filter((l) => l.message === 'handler');
    expect(handlerLines.map((l) => [l.wait, l.requestId])).to.have.deep.members([
      ['30', 'slow'],
      ['1', 'fast'],
    ]);
  });
});
