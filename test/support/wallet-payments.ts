/**
 * Wallet payments against a test gateway: the sandbox's own wallet roots made in the gateway's data
 * directory (as `wallet init` makes them), a merchant given Apple Pay and Google Pay keys (as
 * `wallet keys` gives them), and tokens minted for it with the mint CLI's library, signed at the
 * gateway's own (test) clock unless a test says otherwise.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mintAppleToken, mintGoogleToken, type GoogleAuthMethod, type MintCard } from '../../src/adapters/wallets/mint';
import { initSandboxWalletMaterial, type SandboxWalletMaterial } from '../../src/adapters/wallets/sandbox-trust';
import { keyToOneLine } from '../../src/domain/wallets/settings';
import type { Wallet } from '../../src/domain/wallets/token-shape';
import { walletSaleHash } from '../../src/domain/signatures';
import { defaultSaleFields, type Fields, type TestGateway, type TestMerchant } from './gateway-harness';

export const GATEWAY_NAME = 'sandbox';

export interface WalletKeys {
  merchantIdentifier: string;
  appleKey: KeyObject;
  googleKey: KeyObject;
}

export interface MintOptions {
  /** Default: the sandbox's settling card (01/2038). */
  card?: MintCard;
  authMethod?: GoogleAuthMethod;
  /** Default: the gateway's clock now. */
  signedAt?: Date;
  /** Keys the gateway does not hold (an unknown key). */
  foreignKey?: boolean;
}

/** Sandbox cards by outcome (docs/reference/sandbox.md#cards-by-expiry): the number is any Luhn-valid one, the expiry decides. */
export const WALLET_CARDS = {
  settles: { pan: '4111111111111111', expMonth: '01', expYear: '2038' },
  declines: { pan: '4111111111111111', expMonth: '02', expYear: '2038' },
  threeDsSuccess: { pan: '5555555555554444', expMonth: '05', expYear: '2038' },
  threeDsDeclined: { pan: '5555555555554444', expMonth: '06', expYear: '2038' },
} satisfies Record<string, MintCard>;

/** The sandbox's wallet roots in this gateway's data directory (made once; later calls read them back). */
export async function sandboxWallets(g: TestGateway): Promise<SandboxWalletMaterial> {
  return (await initSandboxWalletMaterial(g.gateway.config.dataDir, g.clock.now())).material;
}

const p256 = () => generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
const pkcs8Line = (key: KeyObject) => keyToOneLine(key.export({ format: 'pem', type: 'pkcs8' }).toString());

/** New processing keys for both wallets, set as the merchant's wallet settings (`wallet keys`). */
export async function giveWalletKeys(g: TestGateway, merchant: TestMerchant, which: readonly Wallet[] = ['applepay', 'googlepay']): Promise<WalletKeys> {
  const keys: WalletKeys = { merchantIdentifier: `merchant.sandbox.${merchant.merchant_id}`, appleKey: p256(), googleKey: p256() };
  await g.gateway.wallets.settings.update(merchant.merchant_id, {
    ...(which.includes('applepay') ? { apple: { merchantIdentifier: keys.merchantIdentifier, processingPrivateKey: pkcs8Line(keys.appleKey) } } : {}),
    ...(which.includes('googlepay') ? { google: { environment: 'TEST' as const, gateway: GATEWAY_NAME, privateKey: pkcs8Line(keys.googleKey) } } : {}),
  });
  return keys;
}

/** A token for `merchant` in the compact JSON `wallet mint` prints (the bytes a wallet would send). */
export async function mintToken(
  g: TestGateway,
  material: SandboxWalletMaterial,
  merchant: TestMerchant,
  keys: WalletKeys,
  wallet: Wallet,
  options: MintOptions = {},
): Promise<string> {
  const card = options.card ?? WALLET_CARDS.settles;
  const signedAt = options.signedAt ?? g.clock.now();
  if (wallet === 'applepay') {
    const token = await mintAppleToken({
      material,
      processingKey: options.foreignKey ? p256() : keys.appleKey,
      merchantIdentifier: keys.merchantIdentifier,
      card,
      signedAt,
    });
    return JSON.stringify(token);
  }
  return JSON.stringify(
    mintGoogleToken({
      material,
      recipientKey: options.foreignKey ? p256() : keys.googleKey,
      recipientId: `gateway:${GATEWAY_NAME}`,
      gatewayMerchantId: merchant.client_key,
      card,
      authMethod: options.authMethod ?? 'CRYPTOGRAM_3DS',
      signedAt,
    }),
  );
}

/** An S2S CARD wallet SALE's fields, signed with Formula 8 (an explicit `hash` wins; `undefined` is not sent). */
export function walletSaleFields(merchant: TestMerchant, wallet: string, token: string, overrides: Fields = {}): Fields {
  const { card_number: _n, card_exp_month: _m, card_exp_year: _y, card_cvv2: _c, ...base } = defaultSaleFields(merchant);
  const fields: Fields = { ...base, digital_wallet: wallet, payment_token: token, ...overrides };
  if (!('hash' in overrides)) fields.hash = walletSaleHash({ payerEmail: fields.payer_email || undefined, password: merchant.password });
  return fields;
}
