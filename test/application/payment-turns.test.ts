/**
 * A payment's places in its line of callbacks: a send waits until every earlier place of the same
 * payment is finished, whatever order the places finish in, and other payments never wait for it.
 */
import { expect } from 'chai';
import { PaymentTurns } from '../../src/application/callbacks/payment-turns';

describe('payment turns: one payment’s callbacks in order', () => {
  it('Given three places of a payment, when the later ones finish first, then the third is ready only once the first is finished too', async () => {
    const turns = new PaymentTurns();
    const [first, second, third] = [turns.take('p-1'), turns.take('p-1'), turns.take('p-1')];
    expect(turns.whenReady(first)).to.equal(null);
    let thirdReady = false;
    void turns.whenReady(third)!.then(() => (thirdReady = true));

    turns.finish(second);
    await Promise.resolve();
    expect(thirdReady).to.equal(false);

    turns.finish(first);
    await Promise.resolve();
    expect(thirdReady).to.equal(true);
    turns.finish(third);
    expect(turns.size).to.equal(0);
  });

  it('Given a place of one payment not finished, then another payment’s place is ready at once', () => {
    const turns = new PaymentTurns();
    turns.take('p-1');
    expect(turns.whenReady(turns.take('p-2'))).to.equal(null);
  });

  it('Given every place finished, then the payment is forgotten and a later event starts a new line', () => {
    const turns = new PaymentTurns();
    const first = turns.take('p-1');
    turns.finish(first);
    expect(turns.size).to.equal(0);
    expect(turns.whenReady(turns.take('p-1'))).to.equal(null);
  });
});
