/**
 * Work run with log fields (the notifier's delivery of a callback, with the id of the request that
 * caused it) gives them to every line it writes, however deep and however late (after awaits,
 * timers); lines of other work do not. Requests name themselves in their lines
 * (test/api/request-id-logs.test.ts).
 */
import { expect } from 'chai';
import { createJsonLogger } from '../../../src/adapters/logging/json-logger';
import { withLogFields } from '../../../src/adapters/logging/log-context';

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
});
