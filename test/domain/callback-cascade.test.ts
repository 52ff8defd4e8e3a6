/**
 * The family's rule for cascaded payments: the merchant hears of the first declined attempt and of
 * the final outcome, not of every attempt between. Given a payment routed to three connectors, when
 * two decline softly in turn, then only the first cascade calls back, as a decline.
 */
import { expect } from 'chai';
import { callbackFieldsFor } from '../../src/domain/callback/callback-content';
import { noProtocolMapping } from '../../src/domain/merchant/protocol-mapping';
import type { PaymentEvent } from '../../src/domain/payment/events';
import { evolvePayment, foldPayment, type ExistingPayment } from '../../src/domain/payment/state';
import { paymentInitiated, T1, T2 } from '../support/payment-fixtures';

const ctx = { password: 'secret', protocolMapping: noProtocolMapping() };

function cascade(paymentId: string, from: string, to: string, at: string): PaymentEvent {
  return { type: 'PaymentCascaded', data: { paymentId, fromConnector: from, toConnector: to, reason: 'Issuer unavailable', code: 'do_not_honor', cascadedAt: at } };
}

describe('Callbacks of a cascaded payment', () => {
  for (const channel of ['s2s_card', 'checkout'] as const) {
    it(`[${channel}] Given three connectors, when two decline softly in turn, then the first cascade calls back as a decline and the second does not`, () => {
      const initiated = paymentInitiated({
        channel,
        connector: 'a',
        route: ['a', 'b', 'c'],
        ...(channel === 'checkout' ? { checkout: { sessionId: 's-1', operation: 'purchase', attempt: 1, hostedFields: false } } : {}),
      });
      const id = initiated.data.paymentId;
      const first = cascade(id, 'a', 'b', T1);
      const second = cascade(id, 'b', 'c', T2);
      const afterFirst = foldPayment([initiated, first]) as ExistingPayment;
      const afterSecond = evolvePayment(afterFirst, second) as ExistingPayment;

      const fields = Object.fromEntries(callbackFieldsFor(first, afterFirst, ctx) ?? []);
      if (channel === 's2s_card') expect(fields).to.include({ action: 'SALE', result: 'DECLINED', status: 'DECLINED', decline_reason: 'Issuer unavailable' });
      else expect(fields).to.include({ type: 'sale', status: 'fail', order_status: 'decline', reason: 'Issuer unavailable' });
      expect(callbackFieldsFor(second, afterSecond, ctx)).to.equal(null);
    });
  }
});
