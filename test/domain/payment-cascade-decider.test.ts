/**
 * Cascading, as the payment decider decides it: given a payment routed to several connectors, when
 * the connector asked first declines, then a soft decline goes on to the route's next connector and
 * anything else is the payment's decline.
 */
import type { AuthorizationResult, PaymentCommand } from '../../src/domain/payment/commands';
import { paymentDecider } from '../../src/domain/payment/decider';
import type { PaymentEvent } from '../../src/domain/payment/events';
import { DeciderSpecification } from '../support/decider-spec';
import { paymentInitiated, T0, T1, T2 } from '../support/payment-fixtures';

const spec = DeciderSpecification.for(paymentDecider);

const routed = paymentInitiated({ connector: 'sandbox-b', route: ['sandbox-b', 'sandbox'] });
const id = routed.data.paymentId;
const record = (result: AuthorizationResult, now = T1): PaymentCommand => ({ type: 'RecordAuthorization', data: { result, now } });
const soft: AuthorizationResult = { outcome: 'declined', reason: 'Issuer unavailable', soft: true, reference: 'sbb_issuer_unavailable_0011223344556677' };
const cascaded: PaymentEvent = {
  type: 'PaymentCascaded',
  data: { paymentId: id, fromConnector: 'sandbox-b', toConnector: 'sandbox', reason: 'Issuer unavailable', code: 'do_not_honor', reference: soft.reference, cascadedAt: T1 },
};

describe('Cascading after a soft decline', () => {
  it('Given a payment routed to sandbox-b then the sandbox, when sandbox-b declines softly, then it cascades to the sandbox and waits for its answer', () => {
    spec.given([routed]).when(record(soft)).then([cascaded]);
    spec.given([routed]).when(record(soft)).thenState({ phase: 'initiated', connector: 'sandbox', cascadedFrom: ['sandbox-b'] });
  });

  it('Given a cascaded payment, when the next connector settles it, then it is settled with that connector\'s reference', () => {
    spec
      .given([routed, cascaded])
      .when(record({ outcome: 'success', descriptor: 'SANDBOX*GATEWAY', reference: 'sbx_success_8899aabbccddeeff' }, T2))
      .thenState({ phase: 'settled', connector: 'sandbox', acquirerReference: 'sbx_success_8899aabbccddeeff' });
  });

  it('Given the last connector of the route, when it declines softly, then the payment is declined', () => {
    spec.given([routed, cascaded]).when(record(soft, T2)).thenState({ phase: 'declined', declineReason: 'Issuer unavailable' });
  });

  it('Given a hard decline, then the payment is declined without cascading', () => {
    spec.given([routed]).when(record({ outcome: 'declined', reason: 'Do not honour' })).thenState({ phase: 'declined', connector: 'sandbox-b' });
  });

  it('Given a payment with no route beyond its connector, when it declines softly, then it is declined', () => {
    spec.given([paymentInitiated({ connector: 'sandbox-b' })]).when(record(soft)).thenState({ phase: 'declined' });
  });

  it('Given a payer who came back from a page of the connector, when it declines softly, then it is final: the payer authenticated there', () => {
    const challenge: PaymentEvent = {
      type: 'ThreeDSChallengeRequired',
      data: { paymentId: id, acsUrl: 'https://acs.example/', params: { PaReq: 'p', MD: id, TermUrl: 't' }, reference: 'r', requiredAt: T0 },
    };
    spec
      .given([routed, challenge])
      .when({ type: 'CompletePayerAction', data: { result: soft, now: T2 } })
      .thenState({ phase: 'declined', connector: 'sandbox-b' });
  });
});
