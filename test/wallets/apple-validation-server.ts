/**
 * A local HTTPS server standing in for Apple's Payment Session endpoint, under a test CA of its
 * own: it asks every client for a certificate of that CA (as Apple asks for the merchant identity
 * certificate), records who connected and what they sent, and answers what the test says.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { asn1js, certificateToPem, issueCertificate, pkijs, type NameParts } from '../../src/adapters/wallets/pki';
import { keyToOneLine } from '../../src/domain/wallets/settings';

const DAY = 86_400_000;
const pemKey = (key: KeyObject): string => key.export({ format: 'pem', type: 'pkcs8' }).toString();

/** subjectAltName: 127.0.0.1 and localhost, the names a test reaches the server by. */
function loopbackNames(): Uint8Array {
  const names = new pkijs.AltName({
    altNames: [
      new pkijs.GeneralName({ type: 7, value: new asn1js.OctetString({ valueHex: Uint8Array.of(127, 0, 0, 1).buffer }) }),
      new pkijs.GeneralName({ type: 2, value: 'localhost' }),
    ],
  });
  return new Uint8Array(names.toSchema().toBER(false));
}

export interface Identity {
  certificatePem: string;
  keyPem: string;
  /** The key as the settings take it: one line. */
  keyLine: string;
}

export interface TestCa {
  caPem: string;
  issue(subject: NameParts, options?: { serverNames?: boolean }): Promise<Identity>;
}

export async function testCa(): Promise<TestCa> {
  const now = Date.now();
  const root = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const rootCert = await issueCertificate({
    subject: { commonName: 'Validation Test CA', organization: 'Gateway Tests' },
    publicKey: root.publicKey,
    selfSignKey: root.privateKey,
    ca: true,
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + 30 * DAY),
  });
  return {
    caPem: certificateToPem(rootCert),
    async issue(subject, options = {}) {
      const pair = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
      const cert = await issueCertificate({
        subject,
        publicKey: pair.publicKey,
        issuer: { certificate: rootCert, privateKey: root.privateKey },
        ca: false,
        notBefore: new Date(now - DAY),
        notAfter: new Date(now + 30 * DAY),
        ...(options.serverNames ? { markers: [{ oid: '2.5.29.17', value: loopbackNames() }] } : {}),
      });
      const keyPem = pemKey(pair.privateKey);
      return { certificatePem: certificateToPem(cert), keyPem, keyLine: keyToOneLine(keyPem) };
    },
  };
}

export interface SeenRequest {
  path: string;
  /** The subject of the client certificate presented, or null for none. */
  clientSubject: string | null;
  body: unknown;
}

export interface ValidationServer {
  url: string;
  seen: SeenRequest[];
  answer: { status: number; body: string };
  stop(): Promise<void>;
}

export async function startValidationServer(ca: TestCa): Promise<ValidationServer> {
  const serverIdentity = await ca.issue({ commonName: 'localhost' }, { serverNames: true });
  const seen: SeenRequest[] = [];
  const state: ValidationServer = {
    url: '',
    seen,
    answer: { status: 200, body: JSON.stringify({ merchantSessionIdentifier: 'SSH-TEST', nonce: 'n0', signature: 'c2ln' }) },
    stop: async () => undefined,
  };
  const server = https.createServer(
    { cert: serverIdentity.certificatePem, key: serverIdentity.keyPem, ca: ca.caPem, requestCert: true, rejectUnauthorized: false },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const socket = req.socket as TLSSocket;
        const peer = socket.authorized ? socket.getPeerCertificate() : null;
        let body: unknown = null;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          body = Buffer.concat(chunks).toString('utf8');
        }
        seen.push({ path: req.url ?? '', clientSubject: peer?.subject?.CN ? String(peer.subject.CN) : null, body });
        res.writeHead(state.answer.status, { 'Content-Type': 'application/json' });
        res.end(state.answer.body);
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/paymentservices/paymentSession`;
  state.stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
