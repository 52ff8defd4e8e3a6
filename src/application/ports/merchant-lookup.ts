import type { Environment, PaymentMode } from '../../domain/merchant/events';
import type { MethodsSetting } from '../../domain/merchant/methods';
import type { ProtocolMapping } from '../../domain/merchant/protocol-mapping';
import type { LinkTarget } from '../../domain/checkout/session-events';

/** A merchant as the read model holds it (password still encrypted). */
export interface MerchantRecord {
  merchantId: string;
  name: string;
  environment: Environment;
  clientKey: string;
  merchantKey: string;
  passwordCiphertext: string;
  paymentMode: PaymentMode;
  notificationUrl: string | null;
  ipAllowlist: string[];
  refundsEnabled: boolean;
  protocolMapping: ProtocolMapping;
  /** Override Link Target; null or absent when unset. */
  overrideLinkTarget?: LinkTarget | null;
  /** card_on_file_support; absent means off. */
  cardOnFileSupport?: boolean;
  /** The merchant's connectors in routing order; absent means the sandbox. */
  connectors?: string[];
  /** Alternative payment methods it may take; absent means its environment's default (domain/merchant/methods.ts). */
  methods?: MethodsSetting;
  registeredAt: string;
  updatedAt: string;
}

export interface MerchantLookup {
  merchantByClientKey(key: string): Promise<MerchantRecord | undefined>;
  merchantByMerchantKey(key: string): Promise<MerchantRecord | undefined>;
  merchantById(id: string): Promise<MerchantRecord | undefined>;
  listMerchants(): Promise<MerchantRecord[]>;
  /** Waits until the read models include every event appended so far (by any process). */
  catchUpToHead(timeoutMs?: number): Promise<boolean>;
}
