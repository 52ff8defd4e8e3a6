/**
 * Node options the launcher gives a command's process: a replay's larger young generation, and
 * nothing for every other command.
 */
import { expect } from 'chai';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { nodeFlagsFor } = require('../../src/cli/command-node-flags.cjs') as { nodeFlagsFor(args: string[]): string[] };

describe('CLI node options per command', () => {
  it('Given projections rebuild, with names and --json anywhere, when launched, then it gets a semi-space that fits a replay page', () => {
    for (const args of [['projections', 'rebuild'], ['projections', 'rebuild', 'payments', '--json'], ['--json', 'projections', 'rebuild']]) {
      expect(nodeFlagsFor(args), args.join(' ')).to.deep.equal(['--max-semi-space-size=128', '--min-semi-space-size=64']);
    }
  });

  it('Given projections verify, when launched, then it gets the same options (the same replay)', () => {
    expect(nodeFlagsFor(['projections', 'verify', 'ledger'])).to.deep.equal(nodeFlagsFor(['projections', 'rebuild']));
  });

  it('Given any other command, when launched, then it starts with node defaults', () => {
    for (const args of [[], ['seed', '--events', '1000'], ['projections'], ['projections', 'unknown'], ['merchant', 'list'], ['rebuild']]) {
      expect(nodeFlagsFor(args), args.join(' ')).to.deep.equal([]);
    }
  });
});
