/**
 * Schemas are compiled once per process: a second app (another role, another gateway in one test
 * run) reuses the compiled functions instead of compiling every schema again, which is most of
 * what building an app costs.
 */
import { expect } from 'chai';
import sinon from 'sinon';
import { compileSchema, compileValidator, sharedAjv } from '../../src/api/validation';

describe('Request schemas compiled once per process', function () {
  afterEach(() => sinon.restore());

  it('Given a schema compiled once, when an equal schema built afresh is compiled, then ajv compiles nothing and the same function answers', function () {
    const ajv = sharedAjv();
    const schema = () => ({ type: 'object', properties: { amount: { type: 'string', minLength: 1 } }, required: ['amount'] });
    const first = compileSchema(ajv, schema());
    const compile = sinon.spy(ajv, 'compile');
    const second = compileSchema(ajv, schema());
    expect(compile.callCount).to.equal(0);
    expect(second).to.equal(first);
  });

  it('Given two apps validating one schema in turn, then each gets its own errors', function () {
    const schema = { type: 'object', properties: { amount: { type: 'string', minLength: 1 } }, required: ['amount'] };
    const a = compileValidator(sharedAjv(), schema);
    const b = compileValidator(sharedAjv(), { ...schema });
    expect(a({})).to.deep.equal([{ error_code: 100000, error_message: 'amount: This value should not be blank.' }]);
    expect(b({ amount: '1' })).to.deep.equal([]);
    expect(a({ amount: '' })).to.have.length(1);
  });

  it('Given different schemas, then each is compiled to its own function', function () {
    const ajv = sharedAjv();
    const strict = compileSchema(ajv, { type: 'string', maxLength: 2 });
    const loose = compileSchema(ajv, { type: 'string', maxLength: 3 });
    expect(strict).to.not.equal(loose);
    expect(strict('abc')).to.equal(false);
    expect(loose('abc')).to.equal(true);
  });
});
