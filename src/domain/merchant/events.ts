/**
 * Events of one merchant stream (`merchant-<merchant id>`). The password is needed as hash input,
 * so it cannot be one-way hashed: events carry it encrypted with the vault key, never in clear.
 */

import type { LinkTarget } from '../checkout/session-events';
import type { MethodsSetting } from './methods';
import type { ProtocolMapping } from './protocol-mapping';
import type { Environment } from './environment';

export const MERCHANT_EVENT_SCHEMA_VERSION = 1;

export type PaymentMode = 'SMS' | 'DMS' | 'SMS/DMS';
export type { Environment } from './environment';

export interface MerchantSettings {
  name: string;
  paymentMode: PaymentMode;
  notificationUrl: string | null;
  /** CIDR blocks (or single addresses); empty means any address is allowed. */
  ipAllowlist: string[];
  refundsEnabled: boolean;
  /**
   * Optional data added to callbacks, status responses and return URLs. Absent (all off) in events
   * recorded before the setting existed; the folded state always has one.
   */
  protocolMapping?: ProtocolMapping;
  /**
   * Override Link Target: where the payer's return to the merchant opens, in place of the
   * session's `url_target`. Absent in events recorded before the setting existed: unset.
   */
  overrideLinkTarget?: LinkTarget | null;
  /**
   * card_on_file_support: ask the connector for a card-on-file reference when a chain starts and
   * hand it out as the chain's `recurring_token`. Absent in events recorded before it existed: off.
   */
  cardOnFileSupport?: boolean;
  /**
   * The merchant's connectors, in the order a payment tries them (smart routing, cascading after a
   * soft decline). Absent in events recorded before it existed: the sandbox, the only connector then.
   */
  connectors?: string[];
  /**
   * The alternative payment methods the merchant may take (`all`, or their identifiers). Absent in
   * events recorded before it existed, and until an operator sets it: the environment's default
   * (sandbox: all; production: none), see methods.ts.
   */
  methods?: MethodsSetting;
}

export interface MerchantRegistered {
  type: 'MerchantRegistered';
  data: MerchantSettings & {
    merchantId: string;
    environment: Environment;
    clientKey: string;
    merchantKey: string;
    /** AES-256-GCM ciphertext of the password, as produced by the vault. */
    passwordCiphertext: string;
    registeredAt: string;
  };
}

export interface MerchantSettingsChanged {
  type: 'MerchantSettingsChanged';
  data: { merchantId: string; changes: Partial<MerchantSettings>; changedAt: string };
}

export type MerchantEvent = MerchantRegistered | MerchantSettingsChanged;

export const merchantStreamId = (merchantId: string): string => `merchant-${merchantId}`;
