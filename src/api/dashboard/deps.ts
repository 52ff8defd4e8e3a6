/** What the dashboard reads and does, connected by the composition root (ports, services, jobs). */
import type { MerchantCredentials, RegisterMerchantInput } from '../../application/merchant-service';
import type { PaymentHistory } from '../../application/payment-history';
import type { CallbackDeliveriesReadModel } from '../../application/ports/callback-deliveries-read-model';
import type { CallbackOverview } from '../../application/ports/callback-overview';
import type { ChainListing } from '../../application/ports/chain-listing';
import type { LedgerReadModel } from '../../application/ports/ledger-read-model';
import type { LedgerReports } from '../../application/ports/ledger-reports';
import type { MerchantRecord } from '../../application/ports/merchant-lookup';
import type { PaymentRecord } from '../../application/ports/payment-read-model';
import type { PaymentSearch } from '../../application/ports/payment-search';
import type { StoredEvent } from '../../application/ports/event-store';
import type { ChainReport } from '../../application/schedules/chain-report';
import type { DeliveryState } from '../../domain/callback-delivery/state';
import type { MerchantSettings } from '../../domain/merchant/events';
import type { UrlBlockPolicy } from '../../domain/callback-delivery/url-block';
import type { VerifyJobProgress } from '../../application/audit/verify-job';
import type { AuthThrottle } from '../auth-throttle';
import type { WalletSettingsInput, WalletSettingsView } from '../../application/wallets';

export interface DashboardDeps {
  environment: string;
  /** The token that signs in (the admin API's). */
  adminToken: string;
  /** 32 bytes, derived from the vault key: seals the session cookies of every process alike. */
  sessionKey: Buffer;
  /** PUBLIC_BASE_URL: https there means cookies are Secure whatever the request says. */
  publicBaseUrl: string;
  throttle?: AuthThrottle;
  /** Real time in ms, for sessions (never the sandbox's movable clock). */
  now?: () => number;
  /** The gateway's business clock (the sandbox's may run ahead), for "due now" and "today". */
  businessNow(): Date;

  payments: PaymentSearch & { paymentById(id: string): Promise<PaymentRecord | undefined> };
  /** The payment's history from its stream, the state folded. */
  history(paymentId: string): Promise<PaymentHistory | null>;
  /** The payment's events exactly as stored, with their chain hashes. */
  storedEvents(paymentId: string): Promise<StoredEvent[]>;
  callbacks: CallbackDeliveriesReadModel & CallbackOverview;
  callbackBlockPolicy: UrlBlockPolicy;
  /** The admin API's redelivery (recorded on the delivery's stream, then sent at once). */
  redeliver(deliveryId: string, requestedBy: string): Promise<DeliveryState>;
  merchants: {
    list(): Promise<MerchantRecord[]>;
    byId(id: string): Promise<MerchantRecord | undefined>;
    register(input: RegisterMerchantInput): Promise<MerchantCredentials>;
    update(id: string, changes: Partial<MerchantSettings>): Promise<void>;
  };
  /** Merchants' Apple Pay and Google Pay settings (pages/merchant-wallets.ts). */
  wallets: {
    view(merchantId: string): Promise<WalletSettingsView>;
    update(merchantId: string, input: WalletSettingsInput): Promise<WalletSettingsView>;
  };
  /** The connectors this deployment has, by name. */
  connectorNames: readonly string[];
  ledger: LedgerReadModel & LedgerReports;
  chains: ChainListing;
  chainReport(chainId: string): Promise<ChainReport | null>;
  health: {
    head(): Promise<bigint | null>;
    checkpoints(): Promise<Record<string, bigint>>;
    /** URLs blocked by this process's notifier right now. */
    blockedUrls(): Array<{ url: string; until: string }>;
    lastAuditCheckpoint(): Promise<{ position: string; upToPosition: string; eventCount: number; digest: string; recordedAt: string } | null>;
  };
  audit: { start(): boolean; status(): VerifyJobProgress };
  /** Waits until the read models include what was written so far. */
  catchUp(): Promise<unknown>;
}
