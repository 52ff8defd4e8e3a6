/**
 * Node options the launcher gives a command's process: a replay's larger young generation, the
 * whole gateway in one process collecting each heap's garbage on its own thread, and nothing for
 * every other command.
 */
import { expect } from 'chai';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { nodeFlagsFor, gatewayNodeFlags } = require('../../src/cli/command-node-flags.cjs') as { nodeFlagsFor(args: string[]): string[]; gatewayNodeFlags(): string[] };

describe('CLI node options per command', () => {
  it('Given projections rebuild, with names and --json anywhere, when launched, then it gets a semi-space that fits a replay page', () => {
    for (const args of [['projections', 'rebuild'], ['projections', 'rebuild', 'payments', '--json'], ['--json', 'projections', 'rebuild']]) {
      expect(nodeFlagsFor(args), args.join(' ')).to.deep.equal(['--max-semi-space-size=128', '--min-semi-space-size=64']);
    }
  });

  it('Given projections verify, when launched, then it gets the same options (the same replay)', () => {
    expect(nodeFlagsFor(['projections', 'verify', 'ledger'])).to.deep.equal(nodeFlagsFor(['projections', 'rebuild']));
  });

  it('Given the whole gateway in one process (npm start, or the all role), when launched, then each heap collects on its own thread', () => {
    expect(gatewayNodeFlags()).to.deep.equal(['--single-threaded-gc']);
    expect(nodeFlagsFor(['all'])).to.deep.equal(['--single-threaded-gc']);
  });

  it('Given any other command, or a role run alone, when launched, then it starts with node defaults', () => {
    for (const args of [[], ['seed', '--events', '1000'], ['projections'], ['projections', 'unknown'], ['merchant', 'list'], ['rebuild'], ['api'], ['projector'], ['notifier'], ['scheduler']]) {
      expect(nodeFlagsFor(args), args.join(' ')).to.deep.equal([]);
    }
  });
});
