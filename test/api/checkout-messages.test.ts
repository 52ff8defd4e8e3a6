/**
 * The Checkout use cases answer with codes; the page layer words them. Every code has its words,
 * exactly as payers and merchants' pages have always read them.
 */
import { expect } from 'chai';
import type { FieldProblem, SessionEnding, SessionRefusal } from '../../src/application/checkout/problems';
import {
  cardDataProblemsText,
  endingText,
  fieldProblemText,
  hostedFieldsRefusalText,
  sessionRefusalText,
} from '../../src/api/checkout-page/messages';

describe('the words of the Checkout pages', () => {
  it('each field problem', () => {
    const cases: Array<[FieldProblem, string]> = [
      [{ field: 'card_number', problem: 'invalid' }, 'Enter a valid card number.'],
      [{ field: 'card_number', problem: 'stored_card_unavailable' }, 'The card to be credited is no longer available.'],
      [{ field: 'card_expiry', problem: 'invalid' }, 'Enter a valid expiry date (MM / YY) that has not passed.'],
      [{ field: 'card_expiry', problem: 'not_the_stored_cards' }, 'The expiry date does not match the card.'],
      [{ field: 'card_cvv', problem: 'invalid', digits: 3 }, 'Enter the 3 digit security code.'],
      [{ field: 'card_cvv', problem: 'invalid', digits: 4 }, 'Enter the 4 digit security code.'],
      [{ field: 'card_cvv', problem: 'invalid', digits: null }, 'Enter the 3 or 4 digit security code.'],
      [{ field: 'card_holder', problem: 'missing' }, 'Enter the name on the card.'],
      [{ field: 'billing_state', problem: 'missing' }, 'Enter the state or province of your billing address.'],
      [{ field: 'billing_country', problem: 'missing' }, 'Select the country of your billing address.'],
    ];
    for (const [problem, text] of cases) expect(fieldProblemText(problem), JSON.stringify(problem)).to.equal(text);
  });

  it('each ending with nowhere to go back to', () => {
    const cases: Array<[SessionEnding, string, string]> = [
      [{ ending: 'paid' }, 'Payment complete', 'Your payment was accepted. You can close this page.'],
      [{ ending: 'declined', declineReason: 'Insufficient funds' }, 'Payment declined', 'Insufficient funds'],
      [{ ending: 'declined', declineReason: null }, 'Payment declined', 'Declined'],
      [{ ending: 'cancelled' }, 'Payment cancelled', 'The payment was cancelled. You can close this page.'],
      [{ ending: 'expired' }, 'Payment session expired', 'The time to pay has run out.'],
      [{ ending: 'not_completed' }, 'Payment not completed', 'The payment could not be completed. You can close this page.'],
      [{ ending: 'finished' }, 'Payment finished', 'You can close this page.'],
    ];
    for (const [ending, title, message] of cases) expect(endingText(ending), JSON.stringify(ending)).to.deep.equal({ title, message });
  });

  it('each refusal of a session, and of a processing request', () => {
    const cases: Array<[SessionRefusal, string]> = [
      ['session_cancelled', 'This payment was cancelled.'],
      ['session_expired', 'This payment session has expired.'],
      ['payment_in_progress', 'A payment is already in progress for this session.'],
      ['session_paid', 'This order has already been paid.'],
      ['attempts_exhausted', 'No more payment attempts are allowed for this order.'],
    ];
    for (const [code, text] of cases) expect(sessionRefusalText(code), code).to.equal(text);
    expect(hostedFieldsRefusalText({ problem: 'invalid_token' })).to.deep.equal({ field: 'Token', message: 'The session token is not valid.' });
    expect(hostedFieldsRefusalText({ problem: 'session', code: 'session_paid' })).to.deep.equal({ field: 'Token', message: 'This order has already been paid.' });
    expect(hostedFieldsRefusalText({ problem: 'wrong_operation', operation: 'debit' })).to.deep.equal({
      field: 'operation',
      message: 'This session is for the debit operation; use /api/v1/processing/debit/card.',
    });
    expect(hostedFieldsRefusalText({ problem: 'no_card_data' })).to.deep.equal({
      field: 'card',
      message: 'No card data was collected for this session: call collectIframesData() first.',
    });
  });

  it('card data the frame cannot hand over: its problems in the form\'s words, else that it is not valid', () => {
    expect(cardDataProblemsText([{ field: 'card_expiry', problem: 'invalid' }, { field: 'card_number', problem: 'invalid' }])).to.equal(
      'Enter a valid expiry date (MM / YY) that has not passed. Enter a valid card number.',
    );
    expect(cardDataProblemsText([])).to.equal('The card data is not valid.');
  });
});
