/**
 * Wallet cards at the card sandbox (docs/wallets.md#test-tokens-in-the-sandbox: the decrypted
 * expiry picks the outcome as a card's, and PAN_ONLY takes its 3-D Secure steps): a device or network token (DPAN) carries the cryptogram of the payer's
 * authentication on the device, so the 3-D Secure expiries are decided without the ACS; an FPAN
 * (Google Pay PAN_ONLY) goes through the ACS like a typed card. Every other expiry is §4's.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import type { PaymentRequest, WalletCardData } from '../../../src/application/ports/connector';
import { SANDBOX_DECLINE_REASONS, SandboxConnector } from '../../../src/adapters/connectors/sandbox';

const PAYMENT_ID = '0b9c7a1e-7d2c-4f1e-9a57-2f4b1c3d5e6f';
const NOW = new Date('2026-05-15T12:00:00Z');
const sandbox = new SandboxConnector({ secret: randomBytes(32), simulatorBaseUrl: 'https://gateway.test', now: () => NOW });

const DPAN: WalletCardData = { wallet: 'applepay', panType: 'DPAN', cryptogram: 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=', eci: '7' };
const FPAN: WalletCardData = { wallet: 'googlepay', panType: 'FPAN' };

function request(expMonth: string, wallet: WalletCardData): PaymentRequest {
  return {
    paymentId: PAYMENT_ID,
    merchantId: 'm-1',
    kind: 'sale',
    amount: 1050,
    currency: 'USD',
    instrument: { kind: 'card', card: { number: '4111111111111111', expMonth, expYear: '2038', wallet } },
    returnUrl: `https://gateway.test/payments/${PAYMENT_ID}/3ds-return`,
  };
}

describe('sandbox acquirer: cards decrypted from wallet tokens', () => {
  it('Given a DPAN expiring 05/2038, when it is authorized, then it settles without the ACS', async () => {
    expect(await sandbox.authorize(request('05', DPAN))).to.include({ outcome: 'success' });
  });

  it('Given a DPAN expiring 06/2038, when it is authorized, then it is declined as a failed authentication, without the ACS', async () => {
    expect(await sandbox.authorize(request('06', DPAN))).to.include({ outcome: 'declined', reason: SANDBOX_DECLINE_REASONS.threeDsFailed });
  });

  it('Given an FPAN (PAN_ONLY) expiring 05/2038, when it is authorized, then the payer is sent to the ACS', async () => {
    const outcome = await sandbox.authorize(request('05', FPAN));
    expect(outcome.outcome).to.equal('redirect');
    if (outcome.outcome === 'redirect') expect(outcome.redirect.kind).to.equal('3ds');
  });

  it('Given wallet cards of the other expiries, then they are decided as typed cards are (02/2038 declines, 12/2038 redirects)', async () => {
    for (const wallet of [DPAN, FPAN]) {
      expect(await sandbox.authorize(request('02', wallet))).to.include({ outcome: 'declined', reason: SANDBOX_DECLINE_REASONS.issuer });
      expect((await sandbox.authorize(request('12', wallet))).outcome).to.equal('redirect');
    }
  });

  it('Given an unanswered DPAN payment of 05/2038, when its status is asked, then the answer is the one it gave: settled', async () => {
    const status = await sandbox.status({
      paymentId: PAYMENT_ID,
      reference: null,
      kind: 'sale',
      amount: 1050,
      currency: 'USD',
      card: { expMonth: '05', expYear: '2038', panType: 'DPAN' },
      returnUrl: 'https://gateway.test/back',
    });
    expect(status.outcome).to.equal('success');
  });
});
