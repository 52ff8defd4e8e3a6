/**
 * The sandbox APM provider with its mobile-money methods (momo-catalogue.ts): what the gateway
 * builds for `sandbox-apm`. It pays out (`CREDIT2VIRTUAL` with `sb-momo` or `sb-payout-email`) and
 * collects with `sb-momo-collect`; everything else is the sandbox APM provider's own.
 *
 * A payout is decided by the payee's email (`parameters[customer_email]`, the variant's
 * `parameters[Email]`): `success@gmail.com` settles at once, `fail@gmail.com` is declined, anyone
 * else is accepted to be decided later: on the provider page (`/sandbox/provider/{trans_id}`), or
 * by the provider itself after SANDBOX_PAYOUT_SETTLE_SECONDS (the sandbox payout worker,
 * src/workers/sandbox-payouts.ts, which sends the provider's notification on the gateway's clock).
 */
import type { ConnectorCapabilities, ConnectorOutcome, PaymentRequest, StatusRequest } from '../../../application/ports/connector';
import { payoutDecidingEmail } from '../../../domain/payouts/payout-rules';
import { SANDBOX_METHOD_IDS, sandboxMethod } from './catalogue';
import { SANDBOX_APM_CAPABILITIES, SANDBOX_APM_DESCRIPTOR, SANDBOX_APM_FAIL, SANDBOX_APM_SUCCESS, SandboxApmConnector } from './connector';
import { SANDBOX_MOMO_METHOD_IDS } from './momo-catalogue';
import { SANDBOX_APM_DECLINE_REASON, newReference } from './transformers';

/** docs/reference/s2s-apm.md#credit2virtual: a payout nobody decides on the provider page settles after 10 seconds. */
export const SANDBOX_PAYOUT_SETTLE_SECONDS = 10;

export const SANDBOX_APM_MOBILE_MONEY_CAPABILITIES: ConnectorCapabilities = {
  ...SANDBOX_APM_CAPABILITIES,
  methods: [...SANDBOX_METHOD_IDS, ...SANDBOX_MOMO_METHOD_IDS],
  payouts: true,
};

/** The payout method a request names, when it names one of ours. */
function payoutMethodOf(request: { instrument: PaymentRequest['instrument'] }) {
  const instrument = request.instrument;
  if (instrument.kind !== 'method') return null;
  const method = sandboxMethod(instrument.method);
  return method?.payout ? { method, scheme: method.payout, parameters: instrument.parameters } : null;
}

export class SandboxApmMobileMoneyConnector extends SandboxApmConnector {
  override readonly capabilities = SANDBOX_APM_MOBILE_MONEY_CAPABILITIES;

  /** A payout method takes no payer's money: a SALE with one is declined. */
  override async authorize(request: PaymentRequest): Promise<ConnectorOutcome> {
    if (payoutMethodOf(request)) return { outcome: 'declined', reason: 'This method only pays out (CREDIT2VIRTUAL)' };
    return super.authorize(request);
  }

  // Optional only because the base class's payout takes nothing: the gateway always gives the request.
  override async payout(request?: PaymentRequest): Promise<ConnectorOutcome> {
    const payout = request ? payoutMethodOf(request) : null;
    if (!payout) return { outcome: 'declined', reason: 'Payouts are not supported by this provider' };
    const reference = newReference('app');
    return this.payoutDecision(payoutDecidingEmail(payout.scheme, payout.parameters), reference) ?? { outcome: 'pending', reference };
  }

  /**
   * A payout the provider never answered has no record with it: declined, so its hold is released
   * (its amount never left). One it answered is decided as it was, or still pending.
   */
  override async status(request: StatusRequest): Promise<ConnectorOutcome> {
    const method = request.method ? sandboxMethod(request.method.method) : null;
    if (!request.method || !method?.payout) return super.status(request);
    if (request.reference === null) return { outcome: 'declined', reason: 'The provider has no record of this payout' };
    return this.payoutDecision(payoutDecidingEmail(method.payout, request.method.parameters), request.reference) ?? { outcome: 'pending', reference: request.reference };
  }

  private payoutDecision(email: string | undefined, reference: string): ConnectorOutcome | null {
    const payee = (email ?? '').trim().toLowerCase();
    if (payee === SANDBOX_APM_SUCCESS) return { outcome: 'success', reference, descriptor: SANDBOX_APM_DESCRIPTOR };
    if (payee === SANDBOX_APM_FAIL) return { outcome: 'declined', reason: SANDBOX_APM_DECLINE_REASON, reference };
    return null;
  }
}
