/**
 * The sandbox's simulated wallet sheet: what a payer's device would hand the page after they
 * approved the payment in the wallet, made here as `wallet mint` makes it. The token is addressed
 * to the merchant's keys when it has them (the card flow opens it); a merchant without keys gets a
 * token for a key of nobody's (its shape is all the virtual flow's sandbox provider reads). The
 * sandbox's roots are made on first use, so the sandbox's wallets are always usable. Sandbox only:
 * production has no sheet, the device makes tokens.
 */
import { generateKeyPairSync } from 'node:crypto';
import type { WalletRecipients } from '../../application/ports/wallet-recipients';
import type { Wallet } from '../../domain/wallets/token-shape';
import { mintAppleToken, mintGoogleToken, type GoogleAuthMethod, type MintCard } from './mint';
import { p256PublicKeyFromPoint } from './pki';
import { initSandboxWalletMaterial } from './sandbox-trust';

/** The cards the sheet offers: the sandbox's outcomes by expiry (docs/reference/sandbox.md#cards-by-expiry). */
export const SHEET_CARDS = {
  settles: { label: 'Visa •••• 1111 (pays)', card: { pan: '4111111111111111', expMonth: '01', expYear: '2038' } },
  declines: { label: 'Visa •••• 1111 (declined by the issuer)', card: { pan: '4111111111111111', expMonth: '02', expYear: '2038' } },
  verifies: { label: 'Mastercard •••• 4444 (3-D Secure)', card: { pan: '5555555555554444', expMonth: '05', expYear: '2038' } },
} as const satisfies Record<string, { label: string; card: MintCard }>;

export type SheetCard = keyof typeof SHEET_CARDS;

export const isSheetCard = (value: unknown): value is SheetCard => typeof value === 'string' && Object.prototype.hasOwnProperty.call(SHEET_CARDS, value);

export interface SheetChoice {
  merchantId: string;
  clientKey: string;
  wallet: Wallet;
  card: SheetCard;
  /** Google Pay only: a device token (CRYPTOGRAM_3DS, the default) or the card itself (PAN_ONLY, which takes 3-D Secure's steps). */
  authMethod?: GoogleAuthMethod;
}

export function simulatedWalletSheet(deps: { dataDir: string; now(): Date; settings: WalletRecipients }) {
  return async (choice: SheetChoice): Promise<string> => {
    const { material } = await initSandboxWalletMaterial(deps.dataDir, deps.now());
    const recipients = await deps.settings.recipients(choice.merchantId);
    const card = SHEET_CARDS[choice.card].card;
    const signedAt = deps.now();
    const nobodys = () => generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey;
    if (choice.wallet === 'applepay') {
      const apple = recipients.apple;
      const token = await mintAppleToken({
        material,
        processingKey: apple ? p256PublicKeyFromPoint(apple.processingPublicKey) : nobodys(),
        merchantIdentifier: apple?.merchantIdentifier ?? 'merchant.sandbox.simulated',
        card,
        signedAt,
      });
      return JSON.stringify(token);
    }
    const google = recipients.google;
    const token = mintGoogleToken({
      material,
      recipientKey: google ? p256PublicKeyFromPoint(google.publicKey) : nobodys(),
      recipientId: google?.recipientId ?? 'gateway:sandbox',
      gatewayMerchantId: google?.gatewayMerchantId ?? choice.clientKey,
      card,
      authMethod: choice.authMethod ?? 'CRYPTOGRAM_3DS',
      signedAt,
    });
    return JSON.stringify(token);
  };
}
