/**
 * What the compiler asks of a new piece: each map below is typed over its whole list of names, so
 * adding a name without its piece fails to compile where the piece belongs. Each case compiles the
 * project's own sources with one file changed in memory, and reads the compiler's diagnostics.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../..');

interface Change {
  file: string;
  from: string;
  to: string;
}

const options = (() => {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, 'tsconfig.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!parsed) throw new Error('tsconfig.json did not parse');
  return parsed.options;
})();

/** Parsed once for every case: only the changed file differs between compilations. */
const parsed = new Map<string, ts.SourceFile | undefined>();

/** The diagnostics of compiling `root` (and what it imports), `change` applied; as `file: message` lines. */
function diagnostics(root: string, change: Change | null): string[] {
  const host = ts.createCompilerHost(options);
  const readSource = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, onError, shouldCreate) => {
    if (change && path.resolve(fileName) === path.join(ROOT, change.file)) {
      const text = readFileSync(fileName, 'utf8');
      // The change must apply, or the case would pass without testing anything.
      expect(text, `${change.file} holds the text to change`).to.include(change.from);
      return ts.createSourceFile(fileName, text.replace(change.from, change.to), language);
    }
    if (!parsed.has(fileName)) parsed.set(fileName, readSource(fileName, language, onError, shouldCreate));
    return parsed.get(fileName);
  };
  const program = ts.createProgram([path.join(ROOT, root)], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file ? path.relative(ROOT, d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

interface Owed {
  what: string;
  /** The file holding the map; compiled from here. */
  map: string;
  change: Change;
  /** The name added, which the diagnostic must name. */
  added: string;
}

const cases: Owed[] = [
  {
    what: 'a domain refusal its spec error',
    map: 'src/api/domain-errors.ts',
    change: { file: 'src/domain/errors.ts', from: "  | 'insufficient_payout_balance';", to: "  | 'insufficient_payout_balance'\n  | 'payment_frozen';" },
    added: 'payment_frozen',
  },
  {
    what: 'an S2S action its schema and handler',
    map: 'src/api/s2s/actions/index.ts',
    change: { file: 'src/api/s2s/actions/names.ts', from: "  'DELETE_SCHEDULE',\n", to: "  'DELETE_SCHEDULE',\n  'FREEZE',\n" },
    added: 'FREEZE',
  },
  {
    what: 'an acquirer its construction',
    map: 'src/composition/connectors.ts',
    change: { file: 'src/config.ts', from: "'sandbox-wallet'] as const;", to: "'sandbox-wallet', 'acme-acquiring'] as const;" },
    added: 'acme-acquiring',
  },
  {
    what: 'a payment command its decider',
    map: 'src/domain/payment/deciders/deciders.ts',
    change: { file: 'src/domain/payment/commands.ts', from: '  | RecordCreditVoid;', to: "  | RecordCreditVoid\n  | { type: 'FreezePayment'; data: { now: string } };" },
    added: 'FreezePayment',
  },
  {
    what: 'a payment event its evolver',
    map: 'src/domain/payment/evolvers/evolvers.ts',
    change: { file: 'src/domain/payment/events.ts', from: '  | ReversalDeclined;', to: "  | ReversalDeclined\n  | { type: 'PaymentFrozen'; data: { paymentId: string } };" },
    added: 'PaymentFrozen',
  },
];

describe('What the compiler asks of a new piece', function () {
  this.timeout(120_000);

  for (const owed of cases) {
    describe(`${owed.what} (${owed.map})`, () => {
      it('Given the sources as they are, when compiled, then nothing is owed', () => {
        expect(diagnostics(owed.map, null)).to.deep.equal([]);
      });

      it(`Given ${owed.added} added without its piece, when compiled, then the compiler names it at the map`, () => {
        const found = diagnostics(owed.map, owed.change);
        expect(found.filter((line) => line.startsWith(`${owed.map}: `) && line.includes(owed.added)), found.join('\n')).to.have.length.greaterThan(0);
      });
    });
  }
});
