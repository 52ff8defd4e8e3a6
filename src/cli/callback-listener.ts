/**
 * `callbacks listen`: a merchant's callback endpoint on this machine, for trying the gateway. It
 * prints every callback it receives, one block per delivery, and answers 200. Given the merchant's
 * password it also says whether the X-Signature header verifies, as a merchant's own server would
 * check it (docs/callbacks.md).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyCallbackSignature } from '../domain/callback/callback-encoding';

export interface ReceivedCallback {
  receivedAt: string;
  method: string;
  path: string;
  deliveryId: string | null;
  attempt: string | null;
  signature: string | null;
  /** True or false when a password was given to check with; null otherwise. */
  signatureValid: boolean | null;
  body: string;
  fields: Array<[string, string]>;
}

export interface CallbackListener {
  url: string;
  close(): Promise<void>;
}

/** Bodies larger than this are cut off: a callback is a few hundred bytes. */
const MAX_BODY = 1024 * 1024;

export async function startCallbackListener(options: {
  port: number;
  /** The merchant's password, to check X-Signature with. */
  password?: string;
  onCallback(callback: ReceivedCallback): void;
}): Promise<CallbackListener> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = (name: string) => {
        const value = req.headers[name];
        return typeof value === 'string' ? value : null;
      };
      const signature = header('x-signature');
      options.onCallback({
        receivedAt: new Date().toISOString(),
        method: req.method ?? '',
        path: req.url ?? '',
        deliveryId: header('x-delivery-id'),
        attempt: header('x-delivery-attempt'),
        signature,
        signatureValid:
          options.password === undefined
            ? null
            : signature !== null && verifyCallbackSignature(options.password, body, signature, Math.floor(Date.now() / 1000)),
        body,
        fields: [...new URLSearchParams(body)],
      });
      res.statusCode = 200;
      res.setHeader('Content-Type', 'text/plain');
      res.end('OK');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callbacks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One block per delivery: when, the headers a merchant checks, the verdict, then the form fields. */
export function describeCallback(c: ReceivedCallback): string {
  const verdict =
    c.signatureValid === null ? 'not checked (give --merchant ID to check it)' : c.signatureValid ? 'valid' : 'INVALID';
  const width = Math.max(0, ...c.fields.map(([name]) => name.length));
  return [
    `--- callback received ${c.receivedAt}: ${c.method} ${c.path}`,
    `X-Delivery-Id:      ${c.deliveryId ?? '-'}  (attempt ${c.attempt ?? '-'})`,
    `X-Signature:        ${c.signature ?? '-'}`,
    `signature:          ${verdict}`,
    ...c.fields.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`),
    '',
  ].join('\n');
}
