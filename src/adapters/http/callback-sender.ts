/**
 * Posts callbacks with node's HTTP client. Connections are kept alive per address, redirects are not
 * followed (a 3xx is a failed attempt: the merchant must fix the URL, we must not wander), and the
 * whole exchange (lookup, connect, send, answer) must finish within the timeout.
 *
 * Where private networks are off limits (production) the sender looks the name up once, refuses the
 * attempt if any answer is non-public, and connects to one of exactly those addresses: the HTTP
 * client is handed the IP literal, never the name, so a DNS answer that changes between the check
 * and the connect (rebinding) cannot take us inside. The name still travels in the Host header and
 * as TLS server name, so virtual hosts and certificate checks work as they would with the name.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { CallbackRequest, CallbackResponse, CallbackSender } from '../../application/ports/callback-sender';
import { isNonPublicAddress } from '../../domain/callback-delivery/network-address';
import { lookupAllAddresses } from './dns-resolver';

/** Every address of a name, in the order to try them. */
export type AddressResolver = (hostname: string) => Promise<string[]>;

export interface HttpCallbackSenderOptions {
  /** Sandbox merchants test against their own machines; production never calls non-public addresses. */
  allowNonPublicAddresses: boolean;
  maxSocketsPerHost?: number;
  /** Default: the system resolver. */
  resolve?: AddressResolver;
  /** Extra certificate authorities to trust besides the system's (a test's own). */
  ca?: string | Buffer;
}

/** Failures that mean "this address cannot be reached", so the next checked address may be tried. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'EAFNOSUPPORT']);

/** The HTTP client only ever gets IP literals; should it still try to resolve, that is refused. */
const noSecondLookup: LookupFunction = (hostname, _options, callback) => {
  callback(Object.assign(new Error(`refused to look up ${hostname} a second time`), { code: 'ESECONDLOOKUP' }), '', 4);
};

const describe = (error: NodeJS.ErrnoException) => (error.code ? `${error.code}: ${error.message}` : error.message);

/** Where a callback goes, as read from its URL. */
interface Target {
  url: URL;
  /** Without the brackets of an IPv6 literal. */
  hostname: string;
  literal: boolean;
  secure: boolean;
}

/** The target, or why the URL cannot be called. */
function targetOf(raw: string): Target | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'invalid URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `unsupported protocol ${url.protocol}`;
  const bracketed = url.hostname.startsWith('[') && url.hostname.endsWith(']');
  const hostname = bracketed ? url.hostname.slice(1, -1) : url.hostname;
  return { url, hostname, literal: isIP(hostname) !== 0, secure: url.protocol === 'https:' };
}

/** One attempt's exchange: the first outcome settles it, and its latency counts from the start. */
class Exchange {
  settled = false;
  /** The request on the wire, destroyed when the time is up. */
  current: http.ClientRequest | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly started: bigint,
    private readonly resolve: (response: CallbackResponse) => void,
  ) {}

  /** The whole exchange (lookup, connect, send, answer) must finish within `timeoutMs`. */
  expireAfter(timeoutMs: number): void {
    this.timer = setTimeout(() => {
      this.finish({ statusCode: null, error: `no answer within ${timeoutMs} ms`, timedOut: true });
      this.current?.destroy();
    }, timeoutMs);
  }

  finish(response: Omit<CallbackResponse, 'latencyMs'>): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    const elapsed = Number(process.hrtime.bigint() - this.started) / 1e6;
    this.resolve({ ...response, latencyMs: Math.round(elapsed * 10) / 10 });
  }
}

/** What one post needs, whichever of the looked-up addresses it goes to. */
interface Posting {
  target: Target;
  request: CallbackRequest;
  body: Buffer;
  addresses: string[];
  exchange: Exchange;
}

/** The status is the answer; the body is read (to keep the connection reusable) and dropped. */
function readAnswer(res: http.IncomingMessage, exchange: Exchange): void {
  let received = 0;
  res.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > 64 * 1024) res.destroy();
  });
  res.on('end', () => exchange.finish({ statusCode: res.statusCode ?? null, error: null, timedOut: false }));
  res.on('error', () => exchange.finish({ statusCode: res.statusCode ?? null, error: null, timedOut: false }));
  res.on('close', () => exchange.finish({ statusCode: res.statusCode ?? null, error: null, timedOut: false }));
}

export class HttpCallbackSender implements CallbackSender {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly resolve: AddressResolver;

  constructor(private readonly options: HttpCallbackSenderOptions) {
    const maxSockets = options.maxSocketsPerHost ?? 32;
    // Sockets are pooled by the address connected to (and the TLS server name), never by the
    // merchant's host name alone, so a kept-alive socket serves only requests for its own address.
    this.httpAgent = new http.Agent({ keepAlive: true, maxSockets });
    this.httpsAgent = new https.Agent({ keepAlive: true, maxSockets, ...(options.ca ? { ca: options.ca } : {}) });
    this.resolve = options.resolve ?? lookupAllAddresses;
  }

  send(request: CallbackRequest): Promise<CallbackResponse> {
    const started = process.hrtime.bigint();
    return new Promise<CallbackResponse>((resolve) => {
      const exchange = new Exchange(started, resolve);
      const target = targetOf(request.url);
      if (typeof target === 'string') return exchange.finish({ statusCode: null, error: target, timedOut: false });
      exchange.expireAfter(request.timeoutMs);
      const body = Buffer.from(request.body, 'utf8');
      this.lookUp(target, exchange, (addresses) => this.post({ target, request, body, addresses, exchange }, 0));
    });
  }

  /** One lookup per attempt; what it returned is what gets checked and connected to. */
  private lookUp(target: Target, exchange: Exchange, connect: (addresses: string[]) => void): void {
    const { hostname, literal } = target;
    Promise.resolve()
      .then(() => (literal ? [hostname] : this.resolve(hostname)))
      .then(
        (addresses) => {
          if (exchange.settled) return;
          if (addresses.length === 0) {
            exchange.finish({ statusCode: null, error: `${hostname} has no address`, timedOut: false });
          } else if (!this.options.allowNonPublicAddresses && addresses.some(isNonPublicAddress)) {
            // Any inside answer refuses the lot: which address a round of DNS puts first is the
            // name owner's choice, not ours.
            exchange.finish({ statusCode: null, error: 'non-public address refused', timedOut: false });
          } else {
            connect(addresses);
          }
        },
        (error: NodeJS.ErrnoException) => exchange.finish({ statusCode: null, error: describe(error), timedOut: false }),
      );
  }

  /** Posts to the address at `index`, and to the next one when that one cannot be reached. */
  private post(attempt: Posting, index: number): void {
    const { target, request, body, addresses, exchange } = attempt;
    const { url, hostname, literal, secure } = target;
    const req = (secure ? https : http).request({
      method: 'POST',
      host: addresses[index],
      port: Number(url.port) || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      agent: secure ? this.httpsAgent : this.httpAgent,
      lookup: noSecondLookup,
      // SNI and the certificate check name the host the merchant gave, not the address.
      ...(secure && !literal ? { servername: hostname } : {}),
      headers: {
        ...request.headers,
        Host: url.host,
        'Content-Type': request.contentType,
        'Content-Length': String(body.length),
        'User-Agent': 'ledger-gateway-callbacks/1',
      },
    });
    exchange.current = req;
    req.on('response', (res) => readAnswer(res, exchange));
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (!exchange.settled && UNREACHABLE.has(error.code ?? '') && index + 1 < addresses.length) return this.post(attempt, index + 1);
      exchange.finish({ statusCode: null, error: describe(error), timedOut: false });
    });
    req.end(body);
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}
