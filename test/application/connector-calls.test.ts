/**
 * Calling a payment's connector: whatever goes wrong on the way (a connector this deployment no longer
 * has, a call that throws) becomes an `unknown` outcome to reconcile, never an exception that would
 * leave the payment without its recorded answer. First calls and follow-ups alike.
 */
import { expect } from 'chai';
import { callConnector, callFollowUp } from '../../src/application/payments/connector-calls';
import type { Connector } from '../../src/application/ports/connector';
import type { ConnectorRegistry } from '../../src/application/ports/connector-registry';

function depsWith(connectors: Record<string, Connector>) {
  const errors: Array<[string, Record<string, unknown> | undefined]> = [];
  const registry: ConnectorRegistry = { get: (name) => connectors[name], all: () => Object.values(connectors) };
  const logger = { info() {}, warn() {}, error: (message: string, fields?: Record<string, unknown>) => void errors.push([message, fields]) };
  return { deps: { connectors: registry, logger }, errors };
}

const acquirer = { name: 'acquirer' } as unknown as Connector;

for (const [what, call] of [
  ['a first call', callConnector],
  ['a follow-up', callFollowUp],
] as const) {
  describe(`connector calls: ${what}`, () => {
    it('Given the connector answers, Then its answer as it is', async () => {
      const { deps, errors } = depsWith({ acquirer });
      const answer = { outcome: 'declined', reason: 'Do not honour' } as never;
      expect(await call(deps, 'acquirer', 'req-1', async () => answer)).to.equal(answer);
      expect(errors).to.deep.equal([]);
    });

    it('Given a connector this deployment does not have, Then unknown, and the operator is told which, and for which request', async () => {
      const { deps, errors } = depsWith({ acquirer });
      expect(await call(deps, 'removed', 'req-1', async () => ({ outcome: 'declined' }) as never)).to.deep.equal({ outcome: 'unknown', detail: 'connector removed is not configured' });
      expect(errors).to.deep.equal([['payment of a connector this deployment does not have', { requestId: 'req-1', connector: 'removed' }]]);
    });

    it('Given a call that throws, Then unknown, and the error is logged with the request it broke', async () => {
      const { deps, errors } = depsWith({ acquirer });
      expect(await call(deps, 'acquirer', 'req-1', async () => { throw new Error('socket hang up'); })).to.deep.equal({ outcome: 'unknown', detail: 'connector call failed' });
      expect(errors).to.deep.equal([['connector call failed', { requestId: 'req-1', connector: 'acquirer', error: 'socket hang up' }]]);
    });
  });
}
