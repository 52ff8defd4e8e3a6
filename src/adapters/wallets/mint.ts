/**
 * Test tokens, made the way the wallets make them, signed with the sandbox's own trust material:
 * what `gateway wallet mint` prints. The sandbox verifies and decrypts them exactly as it does
 * real tokens; production trusts none of their roots.
 */
import {
  createCipheriv,
  createHmac,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  sign,
  type KeyObject,
} from 'node:crypto';
import { appleSignedBytes, applePublicKeyHash, appleSymmetricKey } from './apple-ec-v1';
import { GOOGLE_SENDER_ID, lengthPrefixed } from './google-ec-v2';
import {
  OID_CONTENT_TYPE,
  OID_DATA,
  OID_MESSAGE_DIGEST,
  OID_SIGNED_DATA,
  OID_SIGNING_TIME,
  asn1js,
  pkiEngine,
  pkijs,
  sha256,
  toArrayBuffer,
  toWebCryptoKey,
} from './pki';
import type { SandboxWalletMaterial } from './sandbox-trust';

export interface MintCard {
  pan: string;
  /** MM */
  expMonth: string;
  /** YYYY */
  expYear: string;
  holder?: string;
}

/** The last day of the card's expiry month, as Apple's `YYMMDD`. */
function appleExpiry(card: MintCard): string {
  const lastDay = new Date(Date.UTC(Number(card.expYear), Number(card.expMonth), 0)).getUTCDate();
  return `${card.expYear.slice(2)}${card.expMonth}${String(lastDay).padStart(2, '0')}`;
}

/** Detached CMS SignedData over `content` by the sandbox signer, carrying signer and intermediate. */
async function cmsSign(material: SandboxWalletMaterial, content: Buffer, signingTime: Date): Promise<Buffer> {
  const signer = material.appleSigner;
  const signedData = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID_DATA }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({ issuer: signer.issuer, serialNumber: signer.serialNumber }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({
          type: 0,
          attributes: [
            new pkijs.Attribute({ type: OID_CONTENT_TYPE, values: [new asn1js.ObjectIdentifier({ value: OID_DATA })] }),
            new pkijs.Attribute({ type: OID_SIGNING_TIME, values: [new asn1js.UTCTime({ valueDate: signingTime })] }),
            new pkijs.Attribute({ type: OID_MESSAGE_DIGEST, values: [new asn1js.OctetString({ valueHex: toArrayBuffer(sha256(content)) })] }),
          ],
        }),
      }),
    ],
    certificates: [signer, material.appleIntermediate],
  });
  await signedData.sign(await toWebCryptoKey(material.appleSignerKey, 'sign'), 0, 'SHA-256', toArrayBuffer(content), pkiEngine());
  const contentInfo = new pkijs.ContentInfo({ contentType: OID_SIGNED_DATA, content: signedData.toSchema(true) });
  return Buffer.from(contentInfo.toSchema().toBER(false));
}

/** The `signature` of Apple payment data: detached CMS over its signed fields, by the sandbox signer. */
export async function signApplePaymentData(
  material: SandboxWalletMaterial,
  paymentData: Parameters<typeof appleSignedBytes>[0],
  signedAt: Date,
): Promise<string> {
  return (await cmsSign(material, appleSignedBytes(paymentData), signedAt)).toString('base64');
}

export interface AppleMintRequest {
  material: SandboxWalletMaterial;
  /** The merchant's processing public key (or its private key: only the public half is used). */
  processingKey: KeyObject;
  merchantIdentifier: string;
  card: MintCard;
  signedAt: Date;
}

/** A `PKPaymentToken` (EC_v1) for the card, encrypted to the merchant's processing key. */
export async function mintAppleToken(request: AppleMintRequest): Promise<Record<string, unknown>> {
  const ephemeral = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const processingPublic = request.processingKey.type === 'private' ? createPublicKey(request.processingKey) : request.processingKey;
  const key = appleSymmetricKey(diffieHellman({ privateKey: ephemeral.privateKey, publicKey: processingPublic }), request.merchantIdentifier);
  const plaintext = JSON.stringify({
    applicationPrimaryAccountNumber: request.card.pan,
    applicationExpirationDate: appleExpiry(request.card),
    currencyCode: '840',
    transactionAmount: 0,
    ...(request.card.holder ? { cardholderName: request.card.holder } : {}),
    deviceManufacturerIdentifier: '040010030273',
    paymentDataType: '3DSecure',
    paymentData: { onlinePaymentCryptogram: randomBytes(20).toString('base64'), eciIndicator: '7' },
  });
  const cipher = createCipheriv('aes-256-gcm', key, Buffer.alloc(16), { authTagLength: 16 });
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  const transactionId = randomBytes(32).toString('hex');
  const paymentData = {
    data: data.toString('base64'),
    signature: '',
    header: {
      publicKeyHash: applePublicKeyHash(processingPublic),
      ephemeralPublicKey: ephemeral.publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
      transactionId,
    },
    version: 'EC_v1' as const,
  };
  paymentData.signature = await signApplePaymentData(request.material, paymentData, request.signedAt);
  return {
    paymentData,
    paymentMethod: { displayName: `Card ${request.card.pan.slice(-4)}`, network: 'Visa', type: 'debit' },
    transactionIdentifier: transactionId.toUpperCase(),
  };
}

export type GoogleAuthMethod = 'PAN_ONLY' | 'CRYPTOGRAM_3DS';

export interface GoogleMintRequest {
  material: SandboxWalletMaterial;
  /** The merchant's Google key (public, or private: only the public half is used). */
  recipientKey: KeyObject;
  /** `gateway:<Gateway>`. */
  recipientId: string;
  gatewayMerchantId: string;
  card: MintCard;
  authMethod: GoogleAuthMethod;
  signedAt: Date;
}

const WEEK_MS = 7 * 86_400_000;

const ecdsa = (key: KeyObject, data: Buffer): string => sign('sha256', data, { key, dsaEncoding: 'der' }).toString('base64');

/** An `ECv2` token for the card: a fresh intermediate key signed by the sandbox root, the message encrypted to the merchant. */
export function mintGoogleToken(request: GoogleMintRequest): Record<string, unknown> {
  const signedAt = request.signedAt.getTime();

  const details: Record<string, unknown> = {
    pan: request.card.pan,
    expirationMonth: Number(request.card.expMonth),
    expirationYear: Number(request.card.expYear),
    authMethod: request.authMethod,
    ...(request.card.holder ? { cardholderName: request.card.holder } : {}),
  };
  if (request.authMethod === 'CRYPTOGRAM_3DS') {
    details.cryptogram = randomBytes(20).toString('base64');
    details.eciIndicator = '05';
  }
  const plaintext = JSON.stringify({
    gatewayMerchantId: request.gatewayMerchantId,
    messageExpiration: String(signedAt + WEEK_MS),
    messageId: randomBytes(48).toString('base64url'),
    paymentMethod: 'CARD',
    paymentMethodDetails: details,
  });

  const ephemeral = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const recipient = request.recipientKey.type === 'private' ? createPublicKey(request.recipientKey) : request.recipientKey;
  const shared = diffieHellman({ privateKey: ephemeral.privateKey, publicKey: recipient });
  const ephemeralPoint = ephemeral.publicKey.export({ format: 'der', type: 'spki' }).subarray(-65);
  const keys = Buffer.from(hkdfSync('sha256', Buffer.concat([ephemeralPoint, shared]), Buffer.alloc(32), Buffer.from(GOOGLE_SENDER_ID), 64));
  const cipher = createCipheriv('aes-256-ctr', keys.subarray(0, 32), Buffer.alloc(16));
  const encrypted = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const signedMessage = JSON.stringify({
    encryptedMessage: encrypted.toString('base64'),
    ephemeralPublicKey: ephemeralPoint.toString('base64'),
    tag: createHmac('sha256', keys.subarray(32)).update(encrypted).digest('base64'),
  });
  return signGoogleMessage(request.material, request.recipientId, signedMessage, request.signedAt);
}

/**
 * An ECv2 token around `signedMessage`: a fresh intermediate key valid a week from `signedAt`,
 * signed by the sandbox root, signing the message for `recipientId`.
 */
export function signGoogleMessage(material: SandboxWalletMaterial, recipientId: string, signedMessage: string, signedAt: Date): Record<string, unknown> {
  const intermediate = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const signedKey = JSON.stringify({
    keyValue: intermediate.publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    keyExpiration: String(signedAt.getTime() + WEEK_MS),
  });
  return {
    signature: ecdsa(intermediate.privateKey, lengthPrefixed([GOOGLE_SENDER_ID, recipientId, 'ECv2', signedMessage])),
    intermediateSigningKey: {
      signedKey,
      signatures: [ecdsa(material.googleRootSigningKey, lengthPrefixed([GOOGLE_SENDER_ID, 'ECv2', signedKey]))],
    },
    protocolVersion: 'ECv2',
    signedMessage,
  };
}
