/**
 * What a settlement records beyond its outcome: the descriptor the merchant asked for (Checkout
 * `parameters.card.descriptor`) in place of the connector's, and a currency conversion with the
 * connector's further data, which callbacks and status lookups carry on.
 */
import { paymentDecider } from '../../src/domain/payment/decider';
import { DeciderSpecification } from '../support/decider-spec';
import { T0, T1, paymentInitiated } from '../support/payment-fixtures';

const ID = '0d6f4b8e-2a53-4c07-9b1e-6a0e3c8f5d21';
const spec = DeciderSpecification.for(paymentDecider);
const conversion = { currency: 'EUR', amount: 900, rate: '0.9', rateBase: 'USD' };

describe('payment decider: settlement extras', () => {
  it('Given a Checkout payment sent with a card descriptor, when the connector settles it, then the descriptor is the merchant\'s', () => {
    spec
      .given([paymentInitiated({ paymentId: ID, channel: 'checkout', parameters: { card: { descriptor: 'TEA*ROOMS' } }, initiatedAt: T0 })])
      .when({ type: 'RecordAuthorization', data: { result: { outcome: 'success', reference: 'r-1', descriptor: 'SANDBOX*GATEWAY' }, now: T1 } })
      .then([{ type: 'PaymentSettled', data: { paymentId: ID, amount: 1000, descriptor: 'TEA*ROOMS', reference: 'r-1', settledAt: T1 } }]);
  });

  it('Given an S2S payment, then its parameters name no descriptor: the connector\'s stands', () => {
    spec
      .given([paymentInitiated({ paymentId: ID, parameters: { card: { descriptor: 'TEA*ROOMS' } } })])
      .when({ type: 'RecordAuthorization', data: { result: { outcome: 'success', reference: 'r-1', descriptor: 'SANDBOX*GATEWAY' }, now: T1 } })
      .thenState({ descriptor: 'SANDBOX*GATEWAY' });
  });

  it('Given a connector that settled in another currency, then the settlement records the conversion and its data', () => {
    spec
      .given([paymentInitiated({ paymentId: ID })])
      .when({
        type: 'RecordAuthorization',
        data: { result: { outcome: 'success', reference: 'r-1', descriptor: 'D', conversion, extendedData: { settlement: 'converted' } }, now: T1 },
      })
      .then([
        {
          type: 'PaymentSettled',
          data: { paymentId: ID, amount: 1000, descriptor: 'D', reference: 'r-1', conversion, extendedData: { settlement: 'converted' }, settledAt: T1 },
        },
      ]);
  });

  it('Given an authorization converted by the connector, then the payment keeps the conversion', () => {
    spec
      .given([paymentInitiated({ paymentId: ID, kind: 'authorization' })])
      .when({ type: 'RecordAuthorization', data: { result: { outcome: 'success', reference: 'r-1', descriptor: 'D', conversion }, now: T1 } })
      .thenState({ phase: 'authorized', conversion });
  });
});
