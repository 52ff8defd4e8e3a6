/** What the hosted page shows for a session: the form, a wait, an alternative method's step, or where the payer goes instead. */
import { CARD_METHOD } from '../../../domain/checkout/session-methods';
import { MAX_ATTEMPTS, paymentRefusal } from '../../../domain/checkout/session-decide';
import type { ExistingSession } from '../../../domain/checkout/session-state';
import type { ExistingPayment } from '../../../domain/payment/state';
import type { MerchantAccount } from '../../merchant-service';
import { needsBillingState } from '../billing-state';
import type { CheckoutDeps } from '../deps';
import { expireDueStep, latestPayment } from '../latest-payment';
import { merchantOf } from '../merchant-of';
import { stepOf } from '../method-step';
import { pageMethods, payableWallets, type PageMethod } from '../page-methods';
import { destination } from '../payer-destination';
import { holderNameOf } from '../payer-snapshot';
import { recordExpiry } from '../record-expiry';
import { loadSession } from '../session-lookup';
import type { CheckoutPageModel } from './model';

export async function pageModel(deps: CheckoutDeps, sessionId: string): Promise<CheckoutPageModel | null> {
  const loaded = await loadSession(deps, sessionId);
  if (!loaded) return null;
  let session = loaded.session;
  const merchant = await merchantOf(deps, session.merchantId);
  const latest = await expireDueStep(deps, await latestPayment(deps, session));
  const now = deps.clock.now().toISOString();
  const methods = pageMethods(deps, session, merchant, await payableWallets(deps, session, merchant));
  const base = await formOf(deps, session, merchant, latest, methods);
  const refusal = paymentRefusal(session, latest?.phase ?? null, now);
  if (!refusal) return { ...base, session, view: 'form' };
  if (refusal.code === 'session_expired' && session.status === 'open') {
    session = await recordExpiry(deps, session, loaded.version);
  }
  if (refusal.code === 'payment_in_progress' && latest && (latest.phase === 'initiated' || latest.phase === 'outcome_unknown')) {
    return { ...base, session, view: 'processing' };
  }
  const step = refusal.code === 'payment_in_progress' && latest ? stepOf(latest, methods) : null;
  if (step) return { ...base, session, view: 'method_step', step };
  return { ...base, session, view: 'elsewhere', next: destination(deps, session, latest, merchant) };
}

/** What the page's form starts from, whatever the page then shows. */
async function formOf(
  deps: CheckoutDeps,
  session: ExistingSession,
  merchant: MerchantAccount,
  latest: ExistingPayment | null,
  methods: PageMethod[],
): Promise<Omit<CheckoutPageModel, 'session' | 'view'>> {
  const stored = session.cardToken ? await deps.vault.retrieve(session.cardToken, session.merchantId) : null;
  return {
    merchantName: merchant.name,
    lastDecline: latest?.phase === 'declined' ? { reason: latest.declineReason ?? null } : null,
    attemptsLeft: Math.max(0, MAX_ATTEMPTS - session.attempts.length),
    needs: {
      cardNumber: !session.cardToken,
      cvv: session.operation !== 'credit',
      billingState: needsBillingState(session.billingAddress.country),
    },
    storedCardMask: stored ? `${stored.number.slice(0, 6)}******${stored.number.slice(-4)}` : null,
    // The request's payee names win over the name stored with the card (spec, card credit).
    holderName: holderNameOf(session) || stored?.holder || '',
    methods,
    lastMethod: latest ? (latest.method?.brand ?? CARD_METHOD) : null,
  };
}
