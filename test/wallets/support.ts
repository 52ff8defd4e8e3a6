/**
 * A wallet service on the sandbox's own trust material (made in a temporary data directory), an
 * in-memory event store and a clock the test sets, with one merchant's Apple Pay and Google Pay
 * keys configured; and tokens minted for that merchant as `wallet mint` makes them.
 */
import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WalletService } from '../../src/application/wallets';
import type { ApplePayMerchantSessions } from '../../src/application/ports/apple-pay-merchant-sessions';
import { appleMerchantSessionsFor } from '../../src/adapters/wallets/apple-merchant-sessions';
import { APPLE_PAYMENT_SESSION_URL } from '../../src/config';
import { NodeWalletCrypto, walletKeyCipher } from '../../src/adapters/wallets/node-wallet-crypto';
import { SandboxWalletTrust, type WalletTrust } from '../../src/adapters/wallets/trust';
import { initSandboxWalletMaterial, type SandboxWalletMaterial } from '../../src/adapters/wallets/sandbox-trust';
import { mintAppleToken, mintGoogleToken, type GoogleAuthMethod, type MintCard } from '../../src/adapters/wallets/mint';
import { keyToOneLine } from '../../src/domain/wallets/settings';
import { MemoryEventStore } from '../support/memory-event-store';

export const CARD: MintCard = { pan: '4111111111111111', expMonth: '12', expYear: '2030' };
export const MERCHANT_IDENTIFIER = 'merchant.com.example.shop';
export const GATEWAY = 'examplegateway';

export class SettableClock {
  constructor(public time: number) {}
  now(): Date {
    return new Date(this.time);
  }
}

export const p256 = () => generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
export const oneLine = (key: KeyObject, type: 'pkcs8' | 'sec1' = 'pkcs8'): string =>
  keyToOneLine(key.export({ format: 'pem', type }).toString());

export interface WalletWorld {
  dataDir: string;
  material: SandboxWalletMaterial;
  store: MemoryEventStore;
  clock: SettableClock;
  wallets: WalletService;
  merchant: { merchantId: string; clientKey: string };
  appleKey: KeyObject;
  googleKey: KeyObject;
  mintApple(options?: { card?: MintCard; signedAt?: Date; processingKey?: KeyObject; merchantIdentifier?: string }): Promise<Record<string, unknown>>;
  mintGoogle(options?: {
    card?: MintCard;
    authMethod?: GoogleAuthMethod;
    signedAt?: Date;
    recipientKey?: KeyObject;
    recipientId?: string;
    gatewayMerchantId?: string;
  }): Record<string, unknown>;
  close(): void;
}

export async function walletWorld(options: { trust?: (dataDir: string) => WalletTrust; merchantSessions?: ApplePayMerchantSessions } = {}): Promise<WalletWorld> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gw-wallets-'));
  const { material } = await initSandboxWalletMaterial(dataDir, new Date());
  const store = new MemoryEventStore();
  // Whole seconds: a CMS signing time (UTCTime) has no fractions, so "exactly five minutes" stays exact.
  const clock = new SettableClock(Math.floor(Date.now() / 1000) * 1000);
  const wallets = new WalletService({
    store,
    crypto: new NodeWalletCrypto(options.trust ? options.trust(dataDir) : new SandboxWalletTrust(dataDir)),
    cipher: walletKeyCipher(randomBytes(32)),
    clock,
    // Apple's own endpoint unless a test stands in for it: only merchant validation calls it.
    merchantSessions: options.merchantSessions ?? appleMerchantSessionsFor({ url: APPLE_PAYMENT_SESSION_URL, caFile: null, allowNonPublicAddresses: false }),
  });
  const merchant = { merchantId: 'b3b0a4c2-5a0e-4a57-9d6c-2f7a0e0f4e11', clientKey: 'test_ck_0123456789abcdef' };
  const appleKey = p256().privateKey;
  const googleKey = p256().privateKey;
  await wallets.settings.update(merchant.merchantId, {
    apple: { merchantIdentifier: MERCHANT_IDENTIFIER, processingPrivateKey: oneLine(appleKey) },
    google: { environment: 'TEST', gateway: GATEWAY, privateKey: oneLine(googleKey, 'sec1') },
  });
  return {
    dataDir,
    material,
    store,
    clock,
    wallets,
    merchant,
    appleKey,
    googleKey,
    mintApple: (o = {}) =>
      mintAppleToken({
        material,
        processingKey: o.processingKey ?? appleKey,
        merchantIdentifier: o.merchantIdentifier ?? MERCHANT_IDENTIFIER,
        card: o.card ?? CARD,
        signedAt: o.signedAt ?? clock.now(),
      }),
    mintGoogle: (o = {}) =>
      mintGoogleToken({
        material,
        recipientKey: o.recipientKey ?? googleKey,
        recipientId: o.recipientId ?? `gateway:${GATEWAY}`,
        gatewayMerchantId: o.gatewayMerchantId ?? merchant.clientKey,
        card: o.card ?? CARD,
        authMethod: o.authMethod ?? 'CRYPTOGRAM_3DS',
        signedAt: o.signedAt ?? clock.now(),
      }),
    close: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** Resolves with the refusal `promise` rejects with; fails when it resolves. */
export async function refusal(promise: Promise<unknown>): Promise<Error & { errorCode?: number; errorMessage?: string; reason?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { errorCode?: number; errorMessage?: string; reason?: string };
  }
  throw new Error('expected a refusal, the token was accepted');
}
