/**
 * What a page needs to open the payer's own wallet (docs/wallets.md#the-wallet-on-the-hosted-page):
 * the payment request built from the merchant's wallet settings, and Apple Pay's merchant
 * validation, made with the merchant identity certificate and key those settings hold. The token
 * the wallet then makes is paid as any other (`CheckoutService.payWithWallet`).
 */
import type { ApplePayMerchantSessions } from '../ports/apple-pay-merchant-sessions';
import type { Logger } from '../ports/logger';
import type { WalletKeyCipher } from '../ports/wallet-crypto';
import { applePaymentRequest, googlePaymentRequest, type ApplePaymentRequest, type GooglePaymentRequest, type WalletAmount } from '../../domain/wallets/payment-request';
import type { Wallet } from '../../domain/wallets/token-shape';
import type { WalletSettingsService } from './wallet-settings';

/** The merchant a page pays, as its session names it. */
export interface PagePayee {
  merchantId: string;
  /** The merchant's name: the shop's name where its settings name none. */
  name: string;
  clientKey: string;
}

export type PaymentRequestAnswer =
  | { ok: true; wallet: 'applepay'; request: ApplePaymentRequest; merchantIdentifier: string }
  | { ok: true; wallet: 'googlepay'; request: GooglePaymentRequest }
  | { ok: false; message: string };

export type MerchantSessionOutcome =
  | { ok: true; merchantSession: Record<string, unknown> }
  /** The merchant's settings cannot validate: `message` says which are missing, or the domain refused. */
  | { ok: false; kind: 'not_set_up'; message: string }
  /** Apple's endpoint did not give a session (logged with its reason for the operator). */
  | { ok: false; kind: 'unavailable' };

const lacking = (what: string, missing: string[]) =>
  `${what} is not set up: the merchant's wallet settings lack ${missing.join(', ')}.`;

export class DeviceWallets {
  constructor(
    private readonly deps: {
      settings: WalletSettingsService;
      cipher: WalletKeyCipher;
      sessions: ApplePayMerchantSessions;
      logger?: Logger;
    },
  ) {}

  /** The request for the wallet's sheet; refused naming the settings it cannot be built without. */
  async paymentRequest(payee: PagePayee, wallet: Wallet, amount: WalletAmount): Promise<PaymentRequestAnswer> {
    const { apple, google } = await this.deps.settings.state(payee.merchantId);
    if (wallet === 'applepay') {
      const missing = [
        ...(apple?.merchantIdentifier ? [] : ['Merchant Identifier']),
        ...(apple?.country ? [] : ['Country']),
      ];
      if (!apple?.merchantIdentifier || !apple.country) return { ok: false, message: lacking('Apple Pay', missing) };
      const request = applePaymentRequest({ ...apple, country: apple.country }, payee, amount);
      return { ok: true, wallet, request, merchantIdentifier: apple.merchantIdentifier };
    }
    if (!google?.gateway) return { ok: false, message: lacking('Google Pay', ['Gateway']) };
    return { ok: true, wallet, request: googlePaymentRequest({ ...google, gateway: google.gateway }, payee, amount) };
  }

  /**
   * A merchant session for a page on `domain`: the gateway's own host (the hosted page) or one of
   * the merchant's wallet domains (a shop's page), the domain Apple verified for the merchant.
   */
  async merchantSession(payee: PagePayee, domain: string, ownHost: string): Promise<MerchantSessionOutcome> {
    const state = await this.deps.settings.state(payee.merchantId);
    const apple = state.apple;
    const missing = [
      ...(apple?.merchantIdentifier ? [] : ['Merchant Identifier']),
      ...(apple?.certificate ? [] : ['Certificate']),
      ...(apple?.privateKeyCiphertext ? [] : ['Private Key']),
    ];
    if (!apple?.merchantIdentifier || !apple.certificate || !apple.privateKeyCiphertext) {
      return { ok: false, kind: 'not_set_up', message: lacking('Apple Pay merchant validation', missing) };
    }
    if (domain !== ownHost && !state.domains.includes(domain)) {
      return { ok: false, kind: 'not_set_up', message: `${domain} is not one of the merchant's wallet domains.` };
    }
    const answer = await this.deps.sessions.start({
      certificatePem: apple.certificate,
      privateKeyPem: this.deps.cipher.open(payee.merchantId, apple.privateKeyCiphertext),
      body: {
        merchantIdentifier: apple.merchantIdentifier,
        displayName: apple.shopName ?? payee.name.slice(0, 64),
        initiative: 'web',
        initiativeContext: domain,
      },
    });
    if (answer.ok) return answer;
    this.deps.logger?.warn('Apple Pay merchant validation failed', { merchantId: payee.merchantId, reason: answer.reason });
    return { ok: false, kind: 'unavailable' };
  }
}
