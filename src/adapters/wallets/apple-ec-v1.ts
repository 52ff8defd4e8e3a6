/**
 * Apple Pay `EC_v1` payment data: verify the detached CMS signature and its certificate chain,
 * then decrypt with the merchant's Processing Private Key.
 *
 * Signature: CMS SignedData over `ephemeralPublicKey || data || transactionId || applicationData`
 * (each decoded), signed by a leaf carrying OID 1.2.840.113635.100.6.29, issued by an intermediate
 * carrying 1.2.840.113635.100.6.2.14, chaining to a trusted root; `signingTime` at most five
 * minutes old and at most a minute ahead of now.
 *
 * Decryption: ECDH (P-256) of the ephemeral key and the processing key; the NIST SP 800-56A
 * concatenation KDF with SHA-256 (algorithm id "id-aes256-GCM", party U "Apple", party V the
 * SHA-256 of the merchant identifier); AES-256-GCM with a 16-byte zero IV, the tag at the end.
 *
 * Every failure is one WalletTokenRefused: a sender must not learn which check it failed.
 */
import { X509Certificate, createDecipheriv, createPublicKey, diffieHellman, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { ApplePaymentData } from '../../domain/wallets/token-shape';
import { WalletTokenRefused } from '../../domain/wallets/refusals';
import {
  OID_APPLE_INTERMEDIATE,
  OID_APPLE_LEAF,
  OID_DATA,
  OID_SIGNED_DATA,
  OID_SIGNING_TIME,
  asn1js,
  certificateToDer,
  hasExtension,
  pkiEngine,
  pkijs,
  sha256,
  toArrayBuffer,
} from './pki';

export const APPLE_MAX_SIGNATURE_AGE_MS = 5 * 60_000;
export const APPLE_MAX_SIGNATURE_AHEAD_MS = 60_000;
const SHA256_OID = '2.16.840.1.101.3.4.2.1';
const KDF_ALGORITHM = Buffer.from('\x0did-aes256-GCM', 'latin1');
const KDF_PARTY_U = Buffer.from('Apple', 'utf8');

export interface AppleMerchantKeys {
  /** The merchant's Processing Private Keys (P-256); the header's publicKeyHash picks one. */
  processingKeys: KeyObject[];
  merchantIdentifier: string;
}

export interface AppleVerification {
  /** Trusted roots: the Sandbox Wallet Root CA in the sandbox, Apple's root in production. */
  roots: readonly X509Certificate[];
  now: Date;
}

function refuse(reason: string): never {
  throw new WalletTokenRefused(reason);
}

/** The bytes Apple signs: ephemeralPublicKey || data || transactionId || applicationData. */
export function appleSignedBytes(paymentData: ApplePaymentData): Buffer {
  const { header } = paymentData;
  return Buffer.concat([
    Buffer.from(header.ephemeralPublicKey, 'base64'),
    Buffer.from(paymentData.data, 'base64'),
    Buffer.from(header.transactionId, 'hex'),
    header.applicationData ? Buffer.from(header.applicationData, 'hex') : Buffer.alloc(0),
  ]);
}

/** Base64 SHA-256 of a key's SubjectPublicKeyInfo: what `header.publicKeyHash` names. */
export function applePublicKeyHash(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return sha256(publicKey.export({ format: 'der', type: 'spki' })).toString('base64');
}

const toX509 = (cert: pkijs.Certificate): X509Certificate => new X509Certificate(certificateToDer(cert));

function signingTimeOf(signer: pkijs.SignerInfo): Date {
  const attribute = signer.signedAttrs?.attributes.find((a) => a.type === OID_SIGNING_TIME);
  const value = attribute?.values[0];
  if (value instanceof asn1js.UTCTime || value instanceof asn1js.GeneralizedTime) return value.toDate();
  refuse('the signature has no signing time');
}

/**
 * Verifies the token's signature, chain and freshness. Resolves with the signing time; throws
 * WalletTokenRefused on any failure.
 */
export async function verifyAppleSignature(paymentData: ApplePaymentData, trust: AppleVerification): Promise<Date> {
  if (trust.roots.length === 0) refuse('no Apple Pay root is trusted here');
  let signedData: pkijs.SignedData;
  try {
    const content = pkijs.ContentInfo.fromBER(toArrayBuffer(Buffer.from(paymentData.signature, 'base64')));
    if (content.contentType !== OID_SIGNED_DATA) refuse('the signature is not CMS SignedData');
    signedData = new pkijs.SignedData({ schema: content.content });
  } catch (error) {
    if (error instanceof WalletTokenRefused) throw error;
    refuse('the signature is not CMS');
  }
  if (signedData.signerInfos.length !== 1) refuse('the signature must have exactly one signer');
  // Detached: the signed bytes are the token's own fields, never content carried inside.
  if (signedData.encapContentInfo.eContentType !== OID_DATA || signedData.encapContentInfo.eContent) {
    refuse('the signature must be detached over data');
  }
  const signer = signedData.signerInfos[0];
  if (signer.digestAlgorithm.algorithmId !== SHA256_OID) refuse('the signature must use SHA-256');

  let signerCertificate: pkijs.Certificate | null | undefined;
  try {
    const result = await signedData.verify(
      { signer: 0, data: toArrayBuffer(appleSignedBytes(paymentData)), extendedMode: true, checkChain: false },
      pkiEngine(),
    );
    if (!result.signatureVerified) refuse('the signature does not verify');
    signerCertificate = result.signerCertificate;
  } catch (error) {
    if (error instanceof WalletTokenRefused) throw error;
    refuse('the signature does not verify');
  }
  if (!signerCertificate) refuse('the signer certificate is missing');
  if (!hasExtension(signerCertificate, OID_APPLE_LEAF)) refuse('the signer is not a payment token signer');

  const carried = (signedData.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
  const intermediate = carried.find(
    (c) => c !== signerCertificate && c.subject.isEqual(signerCertificate!.issuer) && hasExtension(c, OID_APPLE_INTERMEDIATE),
  );
  if (!intermediate) refuse('the signature carries no payment intermediate CA');

  const roots = trust.roots.map((root) => pkijs.Certificate.fromBER(toArrayBuffer(root.raw)));
  let chained = false;
  try {
    const engine = new pkijs.CertificateChainValidationEngine({
      trustedCerts: roots,
      certs: [signerCertificate, intermediate],
      checkDate: trust.now,
    });
    chained = (await engine.verify({}, pkiEngine())).result;
  } catch {
    chained = false;
  }
  if (!chained) refuse('the certificate chain does not lead to a trusted root');
  // What the chain engine leaves to the caller: the intermediate must be a CA, the leaf must not.
  const leaf509 = toX509(signerCertificate);
  const intermediate509 = toX509(intermediate);
  if (!intermediate509.ca || leaf509.ca || !leaf509.checkIssued(intermediate509) || !leaf509.verify(intermediate509.publicKey)) {
    refuse('the certificate chain is not leaf, intermediate CA, root');
  }
  if (!trust.roots.some((root) => intermediate509.checkIssued(root) && intermediate509.verify(root.publicKey))) {
    refuse('the intermediate is not issued by a trusted root');
  }

  const signingTime = signingTimeOf(signer);
  const age = trust.now.getTime() - signingTime.getTime();
  if (age > APPLE_MAX_SIGNATURE_AGE_MS) refuse('the signature is more than five minutes old');
  if (-age > APPLE_MAX_SIGNATURE_AHEAD_MS) refuse('the signature is dated in the future');
  return signingTime;
}

/** The symmetric key of NIST SP 800-56A's single-step KDF, as Apple specifies it. */
export function appleSymmetricKey(sharedSecret: Buffer, merchantIdentifier: string): Buffer {
  const partyV = sha256(Buffer.from(merchantIdentifier, 'utf8'));
  return sha256(Buffer.from([0, 0, 0, 1]), sharedSecret, KDF_ALGORITHM, KDF_PARTY_U, partyV);
}

/** The processing key `header.publicKeyHash` names, compared in constant time. */
function keyFor(paymentData: ApplePaymentData, keys: KeyObject[]): KeyObject {
  const wanted = Buffer.from(paymentData.header.publicKeyHash, 'base64');
  const found = keys.find((key) => {
    const hash = Buffer.from(applePublicKeyHash(key), 'base64');
    return hash.length === wanted.length && timingSafeEqual(hash, wanted);
  });
  if (!found) refuse('no processing key matches publicKeyHash');
  return found;
}

/** Decrypts `data` (the signature is the caller's to verify first); resolves with the parsed JSON. */
export function decryptApplePaymentData(paymentData: ApplePaymentData, merchant: AppleMerchantKeys): unknown {
  const privateKey = keyFor(paymentData, merchant.processingKeys);
  let plaintext: Buffer;
  try {
    const ephemeral = createPublicKey({ key: Buffer.from(paymentData.header.ephemeralPublicKey, 'base64'), format: 'der', type: 'spki' });
    const shared = diffieHellman({ privateKey, publicKey: ephemeral });
    const key = appleSymmetricKey(shared, merchant.merchantIdentifier);
    const data = Buffer.from(paymentData.data, 'base64');
    if (data.length <= 16) refuse('data is too short');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.alloc(16), { authTagLength: 16 });
    decipher.setAuthTag(data.subarray(data.length - 16));
    plaintext = Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]);
  } catch (error) {
    if (error instanceof WalletTokenRefused) throw error;
    refuse('data does not decrypt with the processing key');
  }
  try {
    return JSON.parse(plaintext.toString('utf8')) as unknown;
  } catch {
    refuse('decrypted data is not JSON');
  }
}

/** Verify, then decrypt: the whole of opening an Apple Pay token. */
export async function openApplePaymentData(
  paymentData: ApplePaymentData,
  trust: AppleVerification,
  merchant: AppleMerchantKeys,
): Promise<unknown> {
  await verifyAppleSignature(paymentData, trust);
  return decryptApplePaymentData(paymentData, merchant);
}
