/**
 * What a payer's browser sends back to the gateway after the sandbox acquirer's pages: the ACS's
 * form (PaReq, MD, PaRes) or the provider page's (sig, return, decision), built from the payer action
 * the payment recorded, as the simulator pages would post them.
 */
import type { RawPayerReturn } from '../../src/application/payments';
import type { ExistingPayment } from '../../src/domain/payment/state';

export function sandboxPayerReturn(payment: ExistingPayment, approved: boolean): RawPayerReturn {
  const action = payment.payerAction;
  if (!action) throw new Error(`payment ${payment.paymentId} awaits no payer`);
  if (action.kind === '3ds') {
    return { query: {}, body: { PaReq: action.params.PaReq ?? '', MD: action.params.MD ?? '', PaRes: approved ? 'approve' : 'decline' } };
  }
  const link = new URL(action.url);
  return {
    query: {},
    body: { sig: link.searchParams.get('sig') ?? '', return: link.searchParams.get('return') ?? '', decision: approved ? 'continue' : 'cancel' },
  };
}
