/**
 * Certificates and CMS for wallet tokens, over pkijs/asn1js (parsing, building, chain checks) with
 * Node's crypto as the engine. Keys are made with node:crypto and handed to pkijs as WebCrypto keys.
 */
import { createHash, createPublicKey, randomBytes, webcrypto, type KeyObject } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

type EngineCrypto = ConstructorParameters<typeof pkijs.CryptoEngine>[0]['crypto'];
/** The key type pkijs signs and verifies with (WebCrypto's CryptoKey). */
export type WebKey = Parameters<pkijs.Certificate['sign']>[0];

const ENGINE = new pkijs.CryptoEngine({ name: 'node-wallets', crypto: webcrypto as unknown as EngineCrypto });

/** The engine every pkijs call here uses: Node's WebCrypto, whatever global engine pkijs has. */
export const pkiEngine = (): pkijs.ICryptoEngine => ENGINE;

/** Apple's marker extensions: the leaf that signs payment tokens, and the CA that issues it. */
export const OID_APPLE_LEAF = '1.2.840.113635.100.6.29';
export const OID_APPLE_INTERMEDIATE = '1.2.840.113635.100.6.2.14';
/** Merchant identity certificates carry SHA-256(merchant identifier) as hex in this extension. */
export const OID_APPLE_MERCHANT_ID = '1.2.840.113635.100.6.32';

const OID_CN = '2.5.4.3';
const OID_O = '2.5.4.10';
const OID_OU = '2.5.4.11';
const OID_C = '2.5.4.6';
const OID_UID = '0.9.2342.19200300.100.1.1';
export const OID_DATA = '1.2.840.113549.1.7.1';
export const OID_SIGNED_DATA = '1.2.840.113549.1.7.2';
export const OID_CONTENT_TYPE = '1.2.840.113549.1.9.3';
export const OID_MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
export const OID_SIGNING_TIME = '1.2.840.113549.1.9.5';

const toArrayBuffer = (bytes: Uint8Array): ArrayBuffer => {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy.buffer;
};

export const certificateFromDer = (der: Uint8Array): pkijs.Certificate => pkijs.Certificate.fromBER(toArrayBuffer(der));
export const certificateToDer = (cert: pkijs.Certificate): Buffer => Buffer.from(cert.toSchema(true).toBER(false));

export function certificateToPem(cert: pkijs.Certificate): string {
  const b64 = certificateToDer(cert).toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '');
  return `-----BEGIN CERTIFICATE-----\n${b64}\n-----END CERTIFICATE-----\n`;
}

export const hasExtension = (cert: pkijs.Certificate, oid: string): boolean => (cert.extensions ?? []).some((e) => e.extnID === oid);

export const sha256 = (...parts: Uint8Array[]): Buffer => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/** A P-256 key of node:crypto as the WebCrypto key pkijs signs or verifies with. */
export async function toWebCryptoKey(key: KeyObject, usage: 'sign' | 'verify'): Promise<WebKey> {
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256' };
  if (usage === 'sign') {
    const der = key.export({ format: 'der', type: 'pkcs8' });
    return (await webcrypto.subtle.importKey('pkcs8', der, algorithm, false, ['sign'])) as unknown as WebKey;
  }
  const der = (key.type === 'private' ? createPublicKey(key) : key).export({ format: 'der', type: 'spki' });
  return (await webcrypto.subtle.importKey('spki', der, algorithm, true, ['verify'])) as unknown as WebKey;
}

export interface NameParts {
  commonName: string;
  organization?: string;
  organizationalUnit?: string;
  country?: string;
  uid?: string;
}

function distinguishedName(parts: NameParts): pkijs.RelativeDistinguishedNames {
  const name = new pkijs.RelativeDistinguishedNames();
  const add = (type: string, value: asn1js.Utf8String | asn1js.PrintableString) => name.typesAndValues.push(new pkijs.AttributeTypeAndValue({ type, value }));
  if (parts.uid) add(OID_UID, new asn1js.Utf8String({ value: parts.uid }));
  add(OID_CN, new asn1js.Utf8String({ value: parts.commonName }));
  if (parts.organizationalUnit) add(OID_OU, new asn1js.Utf8String({ value: parts.organizationalUnit }));
  if (parts.organization) add(OID_O, new asn1js.Utf8String({ value: parts.organization }));
  if (parts.country) add(OID_C, new asn1js.PrintableString({ value: parts.country }));
  return name;
}

export interface CertificateRequest {
  subject: NameParts;
  /** The certificate's own key pair (public part certified). */
  publicKey: KeyObject;
  /** Who signs: the issuer's certificate and private key; absent for a self-signed root. */
  issuer?: { certificate: pkijs.Certificate; privateKey: KeyObject };
  /** The private key of `publicKey`, for a self-signed root. */
  selfSignKey?: KeyObject;
  ca: boolean;
  notBefore: Date;
  notAfter: Date;
  /** Extra extensions, by OID, each with an ASN.1 NULL value (Apple's marker extensions), or raw DER. */
  markers?: Array<{ oid: string; value?: Uint8Array }>;
}

/** Issues an X.509 v3 certificate (ECDSA P-256, SHA-256). */
export async function issueCertificate(request: CertificateRequest): Promise<pkijs.Certificate> {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  // Positive, non-zero, 16 bytes: the high bit cleared so DER needs no sign byte.
  const serial = randomBytes(16);
  serial[0] = (serial[0] & 0x7f) | 0x01;
  cert.serialNumber = new asn1js.Integer({ valueHex: toArrayBuffer(serial) });
  const subject = distinguishedName(request.subject);
  cert.subject = subject;
  cert.issuer = request.issuer ? request.issuer.certificate.subject : subject;
  cert.notBefore.value = request.notBefore;
  cert.notAfter.value = request.notAfter;
  await cert.subjectPublicKeyInfo.importKey(await toWebCryptoKey(request.publicKey, 'verify'), ENGINE);
  const keyId = sha256(new Uint8Array(cert.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView));
  cert.extensions = [
    new pkijs.Extension({
      extnID: '2.5.29.19',
      critical: true,
      extnValue: new pkijs.BasicConstraints({ cA: request.ca }).toSchema().toBER(false),
      parsedValue: new pkijs.BasicConstraints({ cA: request.ca }),
    }),
    new pkijs.Extension({
      extnID: '2.5.29.15',
      critical: true,
      // keyCertSign + cRLSign for a CA; digitalSignature for a signer.
      extnValue: new asn1js.BitString({
        valueHex: toArrayBuffer(request.ca ? Uint8Array.of(0x06) : Uint8Array.of(0x80)),
        unusedBits: request.ca ? 1 : 7,
      }).toBER(false),
    }),
    new pkijs.Extension({
      extnID: '2.5.29.14',
      critical: false,
      extnValue: new asn1js.OctetString({ valueHex: toArrayBuffer(keyId.subarray(0, 20)) }).toBER(false),
    }),
    ...(request.markers ?? []).map(
      (marker) =>
        new pkijs.Extension({
          extnID: marker.oid,
          critical: false,
          extnValue: marker.value ? toArrayBuffer(marker.value) : new asn1js.Null().toBER(false),
        }),
    ),
  ];
  const signer = request.issuer?.privateKey ?? request.selfSignKey;
  if (!signer) throw new Error('a certificate needs an issuer key or its own key to sign it');
  await cert.sign(await toWebCryptoKey(signer, 'sign'), 'SHA-256', ENGINE);
  return cert;
}

export { asn1js, pkijs, toArrayBuffer };

const P256_SPKI_PREFIX = Buffer.from('3059301306072a8648ce3d020106082a8648ce3d030107034200', 'hex');

/** A P-256 public key from its base64 uncompressed point (how Google and the settings show it). */
export const p256PublicKeyFromPoint = (pointBase64: string): KeyObject =>
  createPublicKey({ key: Buffer.concat([P256_SPKI_PREFIX, Buffer.from(pointBase64, 'base64')]), format: 'der', type: 'spki' });
