/**
 * A merchant's wallet settings: validated, keys encrypted bound to the merchant, recorded on the
 * `merchant-wallet-<id>` stream; the domains claimed on their own streams, so the host a request
 * came to names the merchant whose domain association file it gets.
 */
import { handleCommand, loadState } from '../command-handler';
import type { Clock } from '../ports/clock';
import type { EventStore } from '../ports/event-store';
import type { WalletCrypto, WalletKeyCipher } from '../ports/wallet-crypto';
import {
  walletDomainDecider,
  walletSettingsDecider,
  type WalletSettingsState,
} from '../../domain/wallets/deciders';
import { walletDomainStreamId, walletSettingsStreamId, type WalletSettingsChanges } from '../../domain/wallets/events';
import {
  WalletSettingsInvalid,
  certificateText,
  country,
  domainAssociation,
  gatewayMerchantId,
  googleEnvironment,
  googleGateway,
  keyFromOneLine,
  merchantCapabilities,
  merchantIdentifier,
  shopName,
  supportedNetworks,
  walletDomains,
  type AppleWalletSettings,
  type GoogleWalletSettings,
} from '../../domain/wallets/settings';

/** What a merchant sets; `null` clears a setting, absent leaves it. Keys are one-line PEM. */
export interface WalletSettingsInput {
  apple?: {
    merchantIdentifier?: string;
    certificate?: string | null;
    privateKey?: string | null;
    processingPrivateKey?: string | null;
    country?: string | null;
    shopName?: string | null;
    merchantCapabilities?: string[];
    supportedNetworks?: string[];
  };
  google?: {
    environment?: string;
    gateway?: string;
    gatewayMerchantId?: string | null;
    privateKey?: string | null;
  };
  domains?: string[];
  domainAssociation?: string | null;
}

/** The settings without their secrets: what an operator or merchant may be shown. */
export interface WalletSettingsView {
  merchantId: string;
  apple: {
    merchantIdentifier: string | null;
    certificateSet: boolean;
    privateKeySet: boolean;
    processingPrivateKeySet: boolean;
    processingPublicKeyHash: string | null;
    country: string | null;
    shopName: string | null;
    merchantCapabilities: string[];
    supportedNetworks: string[];
  } | null;
  google: {
    environment: string;
    gateway: string | null;
    /** As configured; null means the merchant's client_key. */
    gatewayMerchantId: string | null;
    privateKeySet: boolean;
    publicKey: string | null;
  } | null;
  domains: string[];
  domainAssociationSet: boolean;
  updatedAt: string | null;
}

const orNull = <T>(value: T | null | undefined, check: (v: T) => T): T | null | undefined =>
  value === undefined ? undefined : value === null ? null : check(value);

export class WalletSettingsService {
  constructor(
    private readonly deps: { store: EventStore; crypto: WalletCrypto; cipher: WalletKeyCipher; clock: Clock },
  ) {}

  async state(merchantId: string): Promise<WalletSettingsState> {
    return (await loadState(this.deps.store, walletSettingsStreamId(merchantId), walletSettingsDecider)).state;
  }

  async view(merchantId: string): Promise<WalletSettingsView> {
    return viewOf(merchantId, await this.state(merchantId));
  }

  /** Validates everything first (WalletSettingsInvalid names the setting), then records it. */
  async update(merchantId: string, input: WalletSettingsInput): Promise<WalletSettingsView> {
    const before = await this.state(merchantId);
    const changes = this.changesFrom(merchantId, input, before);
    const now = this.deps.clock.now().toISOString();
    const added = changes.domains ? changes.domains.filter((d) => !before.domains.includes(d)) : [];
    const removed = changes.domains ? before.domains.filter((d) => !changes.domains!.includes(d)) : [];
    // Claims first: a domain another merchant holds refuses the whole change before it is recorded.
    const claimed: string[] = [];
    try {
      for (const domain of added) {
        await handleCommand(this.deps.store, walletDomainStreamId(domain), walletDomainDecider, {
          type: 'ClaimWalletDomain',
          data: { domain, merchantId, now },
        });
        claimed.push(domain);
      }
    } catch (error) {
      await this.release(merchantId, claimed, now);
      throw error;
    }
    const result = await handleCommand(this.deps.store, walletSettingsStreamId(merchantId), walletSettingsDecider, {
      type: 'ChangeWalletSettings',
      data: { merchantId, changes, now },
    });
    await this.release(merchantId, removed, now);
    return viewOf(merchantId, result.state);
  }

  /**
   * The public keys tokens for this merchant are encrypted to, with what else a wallet puts into
   * them: for making test tokens (`wallet mint`). Null for a wallet without its keys.
   */
  async recipients(merchantId: string): Promise<{
    apple: { merchantIdentifier: string; processingPublicKey: string } | null;
    google: { recipientId: string; gatewayMerchantId: string | null; publicKey: string } | null;
  }> {
    const { apple, google } = await this.state(merchantId);
    const publicOf = (setting: string, ciphertext: string) =>
      this.deps.crypto.describePrivateKey(setting, this.deps.cipher.open(merchantId, ciphertext)).uncompressedPublicKey;
    return {
      apple:
        apple?.processingPrivateKeyCiphertext && apple.merchantIdentifier
          ? {
              merchantIdentifier: apple.merchantIdentifier,
              processingPublicKey: publicOf('Processing Private Key', apple.processingPrivateKeyCiphertext),
            }
          : null,
      google:
        google?.privateKeyCiphertext && google.gateway
          ? {
              recipientId: `gateway:${google.gateway}`,
              gatewayMerchantId: google.gatewayMerchantId,
              publicKey: publicOf('Google Private Key', google.privateKeyCiphertext),
            }
          : null,
    };
  }

  /** The association file of the merchant whose domain `host` is; null when none is. */
  async domainAssociationFor(host: string): Promise<string | null> {
    const domain = host.trim().toLowerCase().replace(/\.$/, '');
    if (!/^[a-z0-9.-]{1,253}$/.test(domain)) return null;
    const { state } = await loadState(this.deps.store, walletDomainStreamId(domain), walletDomainDecider);
    if (!state.owner) return null;
    const settings = await this.state(state.owner);
    // A claim left behind by an interrupted change counts only while the merchant still lists it.
    return settings.domains.includes(domain) ? settings.domainAssociation : null;
  }

  private async release(merchantId: string, domains: string[], now: string): Promise<void> {
    for (const domain of domains) {
      await handleCommand(this.deps.store, walletDomainStreamId(domain), walletDomainDecider, {
        type: 'ReleaseWalletDomain',
        data: { domain, merchantId, now },
      });
    }
  }

  private sealKey(merchantId: string, setting: string, oneLine: string | null | undefined) {
    if (oneLine === undefined) return undefined;
    if (oneLine === null) return { ciphertext: null, facts: null };
    const pem = keyFromOneLine(setting, oneLine);
    const facts = this.deps.crypto.describePrivateKey(setting, pem);
    return { ciphertext: this.deps.cipher.seal(merchantId, pem), facts };
  }

  /**
   * The merchant identity key: the TLS client key of Apple Pay's merchant validation, so any key
   * such a certificate may certify, checked against the certificate it comes with or the stored one.
   */
  private sealIdentityKey(merchantId: string, oneLine: string | null, certificate: string | null | undefined, before: WalletSettingsState): string | null {
    if (oneLine === null) return null;
    const pem = keyFromOneLine('Private Key', oneLine);
    this.deps.crypto.checkIdentityKey('Private Key', pem, certificate === undefined ? (before.apple?.certificate ?? null) : certificate);
    return this.deps.cipher.seal(merchantId, pem);
  }

  private changesFrom(merchantId: string, input: WalletSettingsInput, before: WalletSettingsState): WalletSettingsChanges {
    const changes: WalletSettingsChanges = {};
    if (input.apple) {
      const a = input.apple;
      const apple: Partial<AppleWalletSettings> = {};
      if (a.merchantIdentifier !== undefined) apple.merchantIdentifier = merchantIdentifier(a.merchantIdentifier);
      if (a.certificate !== undefined) {
        apple.certificate = a.certificate === null ? null : certificateText('Certificate', a.certificate);
        if (apple.certificate) this.deps.crypto.checkCertificate('Certificate', apple.certificate);
      }
      if (a.privateKey !== undefined) apple.privateKeyCiphertext = this.sealIdentityKey(merchantId, a.privateKey, apple.certificate, before);
      const processing = this.sealKey(merchantId, 'Processing Private Key', a.processingPrivateKey);
      if (processing) {
        apple.processingPrivateKeyCiphertext = processing.ciphertext;
        apple.processingPublicKeyHash = processing.facts?.applePublicKeyHash ?? null;
      }
      const c = orNull(a.country, country);
      if (c !== undefined) apple.country = c;
      const s = orNull(a.shopName, shopName);
      if (s !== undefined) apple.shopName = s;
      if (a.merchantCapabilities) apple.merchantCapabilities = merchantCapabilities(a.merchantCapabilities);
      if (a.supportedNetworks) apple.supportedNetworks = supportedNetworks(a.supportedNetworks);
      changes.apple = apple;
    }
    if (input.google) {
      const g = input.google;
      const google: Partial<GoogleWalletSettings> = {};
      if (g.environment !== undefined) google.environment = googleEnvironment(g.environment);
      if (g.gateway !== undefined) google.gateway = googleGateway(g.gateway);
      const id = orNull(g.gatewayMerchantId, gatewayMerchantId);
      if (id !== undefined) google.gatewayMerchantId = id;
      const key = this.sealKey(merchantId, 'Google Private Key', g.privateKey);
      if (key) {
        google.privateKeyCiphertext = key.ciphertext;
        google.publicKey = key.facts?.uncompressedPublicKey ?? null;
      }
      changes.google = google;
    }
    if (input.domains !== undefined) changes.domains = walletDomains(input.domains);
    if (input.domainAssociation !== undefined) {
      changes.domainAssociation = input.domainAssociation === null ? null : domainAssociation(input.domainAssociation);
    }
    return changes;
  }
}

export function viewOf(merchantId: string, state: WalletSettingsState): WalletSettingsView {
  const { apple, google } = state;
  return {
    merchantId,
    apple: apple && {
      merchantIdentifier: apple.merchantIdentifier,
      certificateSet: apple.certificate !== null,
      privateKeySet: apple.privateKeyCiphertext !== null,
      processingPrivateKeySet: apple.processingPrivateKeyCiphertext !== null,
      processingPublicKeyHash: apple.processingPublicKeyHash,
      country: apple.country,
      shopName: apple.shopName,
      merchantCapabilities: apple.merchantCapabilities,
      supportedNetworks: apple.supportedNetworks,
    },
    google: google && {
      environment: google.environment,
      gateway: google.gateway,
      gatewayMerchantId: google.gatewayMerchantId,
      privateKeySet: google.privateKeyCiphertext !== null,
      publicKey: google.publicKey,
    },
    domains: state.domains,
    domainAssociationSet: state.domainAssociation !== null,
    updatedAt: state.updatedAt,
  };
}

export { WalletSettingsInvalid };
