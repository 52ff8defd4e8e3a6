/**
 * A request whose target and method go on the wire exactly as written. `fetch` normalises paths
 * (`%2e%2e`, `//`), refuses methods such as TRACE and validates header values, which is what a
 * hostile client does not do.
 */
import http from 'node:http';
import type { HttpResult } from './gateway-harness';

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export function rawRequest(baseUrl: string, target: string, init: RawRequest = {}): Promise<HttpResult> {
  const { hostname, port } = new URL(baseUrl);
  const body = init.body === undefined ? undefined : Buffer.isBuffer(init.body) ? init.body : Buffer.from(init.body, 'utf8');
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: hostname,
        port: Number(port),
        method: init.method ?? 'GET',
        path: target,
        headers: { ...(body ? { 'Content-Length': String(body.length) } : {}), ...init.headers },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          let parsed: unknown = text;
          if ((res.headers['content-type'] ?? '').includes('json')) {
            try {
              parsed = JSON.parse(text);
            } catch {
              parsed = text;
            }
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, headers, text });
        });
      },
    );
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}
