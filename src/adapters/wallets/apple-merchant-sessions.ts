/**
 * Apple Pay's Payment Session endpoint over mutual TLS: the merchant identity certificate and key
 * are the TLS client's, the JSON answer is the merchant session. The endpoint is the deployment's
 * (WALLET_APPLE_VALIDATION_URL), never a URL a browser sends, so no payer can point the gateway
 * anywhere.
 *
 * As for callbacks, a production gateway looks the name up once, refuses if any answer is
 * non-public, and connects to exactly the address it checked (the name travels as Host and TLS
 * server name): a DNS answer that changes between check and connect cannot take us inside.
 */
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { ApplePayMerchantSessions, MerchantSessionAnswer, MerchantSessionRequest } from '../../application/ports/apple-pay-merchant-sessions';
import { isNonPublicAddress } from '../../domain/callback-delivery/network-address';
import { lookupAllAddresses } from '../http/dns-resolver';

export interface HttpsMerchantSessionsOptions {
  /** The Payment Session endpoint, https only. */
  url: string;
  /** Outside production a test may stand in for Apple on the machine itself. */
  allowNonPublicAddresses: boolean;
  /** Certificate authorities to trust in place of the system's: a test's own, never in production. */
  ca?: string | Buffer;
  /** Every address of a name; default the system resolver. */
  resolve?: (hostname: string) => Promise<string[]>;
  timeoutMs?: number;
}

/** Apple's merchant session is a few kilobytes; anything far larger is not one. */
const MAX_ANSWER_BYTES = 64 * 1024;

const noSecondLookup: LookupFunction = (hostname, _options, callback) => {
  callback(Object.assign(new Error(`refused to look up ${hostname} a second time`), { code: 'ESECONDLOOKUP' }), '', 4);
};

export class HttpsApplePayMerchantSessions implements ApplePayMerchantSessions {
  private readonly url: URL;

  constructor(private readonly options: HttpsMerchantSessionsOptions) {
    this.url = new URL(options.url);
    if (this.url.protocol !== 'https:') throw new Error('the Apple Pay validation URL must be https');
  }

  async start(request: MerchantSessionRequest): Promise<MerchantSessionAnswer> {
    const hostname = this.url.hostname.replace(/^\[(.*)\]$/, '$1');
    const literal = isIP(hostname) !== 0;
    let addresses: string[];
    try {
      addresses = literal ? [hostname] : await (this.options.resolve ?? lookupAllAddresses)(hostname);
    } catch (error) {
      return { ok: false, reason: `${hostname}: ${(error as Error).message}` };
    }
    if (addresses.length === 0) return { ok: false, reason: `${hostname} has no address` };
    if (!this.options.allowNonPublicAddresses && addresses.some(isNonPublicAddress)) return { ok: false, reason: 'non-public address refused' };
    return this.post(addresses[0], literal ? null : hostname, request);
  }

  private post(address: string, servername: string | null, request: MerchantSessionRequest): Promise<MerchantSessionAnswer> {
    const body = Buffer.from(JSON.stringify(request.body), 'utf8');
    return new Promise((resolve) => {
      const req = https.request({
        method: 'POST',
        host: address,
        port: Number(this.url.port) || 443,
        path: `${this.url.pathname}${this.url.search}`,
        agent: false,
        lookup: noSecondLookup,
        cert: request.certificatePem,
        key: request.privateKeyPem,
        ...(this.options.ca ? { ca: this.options.ca } : {}),
        ...(servername ? { servername } : {}),
        timeout: this.options.timeoutMs ?? 10_000,
        headers: { Host: this.url.host, 'Content-Type': 'application/json', 'Content-Length': String(body.length) },
      });
      req.on('timeout', () => req.destroy(new Error('no answer in time')));
      req.on('error', (error: NodeJS.ErrnoException) => resolve({ ok: false, reason: error.code ? `${error.code}: ${error.message}` : error.message }));
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) return res.destroy(new Error('answer too large'));
          chunks.push(chunk);
        });
        res.on('error', (error) => resolve({ ok: false, reason: error.message }));
        res.on('end', () => resolve(answerOf(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'))));
      });
      req.end(body);
    });
  }
}

/** The deployment's endpoint (config.ts, WALLET_APPLE_VALIDATION_*), its test CA read once. */
export function appleMerchantSessionsFor(settings: { url: string; caFile: string | null; allowNonPublicAddresses: boolean }): HttpsApplePayMerchantSessions {
  return new HttpsApplePayMerchantSessions({
    url: settings.url,
    allowNonPublicAddresses: settings.allowNonPublicAddresses,
    ...(settings.caFile ? { ca: readFileSync(settings.caFile) } : {}),
  });
}

function answerOf(status: number, text: string): MerchantSessionAnswer {
  if (status !== 200) return { ok: false, reason: `HTTP ${status}: ${text.slice(0, 200)}` };
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return { ok: true, merchantSession: parsed as Record<string, unknown> };
  } catch {
    // Falls through: not JSON.
  }
  return { ok: false, reason: 'the answer is not a merchant session' };
}
