/**
 * Posts callbacks with node's HTTP client. Connections are kept alive per merchant host, redirects
 * are not followed (a 3xx is a failed attempt: the merchant must fix the URL, we must not wander),
 * and the whole exchange (connect, send, answer) must finish within the timeout.
 */
import http from 'node:http';
import https from 'node:https';
import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { CallbackRequest, CallbackResponse, CallbackSender } from '../../application/ports/callback-sender';
import { isNonPublicAddress } from '../../domain/callback-delivery/network-address';

export interface HttpCallbackSenderOptions {
  /** Sandbox merchants test against their own machines; production never calls non-public addresses. */
  allowNonPublicAddresses: boolean;
  maxSocketsPerHost?: number;
}

/** Resolves as usual, then refuses a non-public answer, so a DNS name cannot smuggle us inside. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: false }, (error, address, family) => {
    if (error) return callback(error, address as string, family as number);
    if (isNonPublicAddress(address as string)) {
      return callback(Object.assign(new Error(`${hostname} resolves to a non-public address`), { code: 'ENONPUBLIC' }), '', 4);
    }
    callback(null, address as string, family as number);
  });
};

export class HttpCallbackSender implements CallbackSender {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(private readonly options: HttpCallbackSenderOptions) {
    const maxSockets = options.maxSocketsPerHost ?? 32;
    this.httpAgent = new http.Agent({ keepAlive: true, maxSockets });
    this.httpsAgent = new https.Agent({ keepAlive: true, maxSockets });
  }

  send(request: CallbackRequest): Promise<CallbackResponse> {
    const started = process.hrtime.bigint();
    const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
    return new Promise<CallbackResponse>((resolve) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const finish = (response: Omit<CallbackResponse, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...response, latencyMs: Math.round(elapsed() * 10) / 10 });
      };
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        finish({ statusCode: null, error: 'invalid URL', timedOut: false });
        return;
      }
      const hostname = url.hostname.replace(/^\[|\]$/g, '');
      if (!this.options.allowNonPublicAddresses && isIP(hostname) && isNonPublicAddress(hostname)) {
        finish({ statusCode: null, error: 'non-public address refused', timedOut: false });
        return;
      }
      const secure = url.protocol === 'https:';
      const body = Buffer.from(request.body, 'utf8');
      const req = (secure ? https : http).request(url, {
        method: 'POST',
        agent: secure ? this.httpsAgent : this.httpAgent,
        lookup: this.options.allowNonPublicAddresses ? undefined : publicOnlyLookup,
        headers: {
          ...request.headers,
          'Content-Type': request.contentType,
          'Content-Length': String(body.length),
          'User-Agent': 'ledger-gateway-callbacks/1',
        },
      });
      timer = setTimeout(() => {
        finish({ statusCode: null, error: `no answer within ${request.timeoutMs} ms`, timedOut: true });
        req.destroy();
      }, request.timeoutMs);
      req.on('response', (res) => {
        // The status is the answer; the body is read (to keep the connection reusable) and dropped.
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > 64 * 1024) res.destroy();
        });
        res.on('end', () => finish({ statusCode: res.statusCode ?? null, error: null, timedOut: false }));
        res.on('error', () => finish({ statusCode: res.statusCode ?? null, error: null, timedOut: false }));
        res.on('close', () => finish({ statusCode: res.statusCode ?? null, error: null, timedOut: false }));
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        finish({ statusCode: null, error: error.code ? `${error.code}: ${error.message}` : error.message, timedOut: false });
      });
      req.end(body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
