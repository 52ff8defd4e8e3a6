/**
 * The structure's limits, held on every change: in `src/` and `projections/`, no file over 500
 * lines, no class over 400, and at most five functions over 80 (import cycles: layers.test.ts).
 * `npx tsx test/architecture/figures.ts` prints the figures.
 */
import { expect } from 'chai';
import { LIMITS, measure, type Figures } from './figures';

describe('Structure: sizes within their limits', function () {
  this.timeout(60_000);
  let figures: Figures;
  before(() => {
    figures = measure();
  });
  const over = (spans: Figures['files'], limit: number) => spans.filter((s) => s.lines > limit).map((s) => `${s.file} ${s.name} ${s.lines}`);

  it(`Given src/ and projections/, then no file is over ${LIMITS.fileLines} lines`, () => {
    expect(over(figures.files, LIMITS.fileLines)).to.deep.equal([]);
  });

  it(`Given src/ and projections/, then no class is over ${LIMITS.classLines} lines`, () => {
    expect(over(figures.classes, LIMITS.classLines)).to.deep.equal([]);
  });

  it(`Given src/ and projections/, then at most ${LIMITS.functionsOverLimit} functions are over ${LIMITS.functionLines} lines`, () => {
    const long = over(figures.functions, LIMITS.functionLines);
    expect(long.length, long.join('\n')).to.be.at.most(LIMITS.functionsOverLimit);
  });

  it('Given a file, a class and a function of known size, then each is measured in lines from its first to its last', () => {
    const file = figures.files.find((f) => f.file === 'test/architecture/figures.ts');
    expect(file, 'figures.ts measures only src/ and projections/').to.equal(undefined);
    const measured = figures.functions.find((f) => f.file === 'src/adapters/os/module-thread.ts' && f.name === 'startModuleThread');
    expect(measured?.lines).to.be.within(3, 10);
  });
});
