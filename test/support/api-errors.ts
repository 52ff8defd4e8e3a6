/** Assertions on the spec's error shape (`result: ERROR`, `error_code`, `error_message`, `errors`). */
import { expect } from 'chai';
import type { HttpResult } from './gateway-harness';

/** `Request data is invalid.` whose `errors` name this field problem (among others). */
export function expectFieldError(res: HttpResult, message: string): void {
  expect(res.status, res.text).to.equal(400);
  expect(res.body, res.text).to.include({ result: 'ERROR', error_code: 100000, error_message: 'Request data is invalid.' });
  expect(res.body.errors, res.text).to.deep.include({ error_code: 100000, error_message: message });
}

/** Exactly this refusal, with no field errors. */
export function expectError(res: HttpResult, code: number, message: string): void {
  expect(res.status, res.text).to.equal(400);
  expect(res.body, res.text).to.deep.equal({ result: 'ERROR', error_code: code, error_message: message });
}
