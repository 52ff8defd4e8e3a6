/**
 * A merchant's callback endpoint on loopback for tests: records every request (headers, raw body,
 * arrival time) and answers as the test scripts it: a status code, or `hang` (never answers).
 * It can go down and come back on the same port.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ReceivedCallback {
  headers: http.IncomingHttpHeaders;
  body: string;
  fields: URLSearchParams;
  arrivedAt: number;
  deliveryId: string;
  answeredWith: number | 'hang';
}

export type Answer = number | 'hang';

export class CallbackReceiver {
  readonly received: ReceivedCallback[] = [];
  /** Answers used in order; when empty, `defaultAnswer`. */
  readonly script: Answer[] = [];
  defaultAnswer: Answer = 200;
  /**
   * When set, decides every answer from the request itself (its delivery and how many times that
   * delivery came before), whatever order concurrent senders' requests arrive in.
   */
  answerBy: ((request: { deliveryId: string; fields: URLSearchParams; seenBefore: number }) => Answer) | null = null;
  private server: http.Server | null = null;
  private readonly sockets = new Set<Socket>();
  private port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/callbacks`;
  }

  async start(): Promise<this> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const deliveryId = String(req.headers['x-delivery-id'] ?? '');
        const seenBefore = this.received.filter((r) => r.deliveryId === deliveryId).length;
        const answer = this.answerBy
          ? this.answerBy({ deliveryId, fields: new URLSearchParams(body), seenBefore })
          : this.script.length
            ? this.script.shift()!
            : this.defaultAnswer;
        this.received.push({
          headers: req.headers,
          body,
          fields: new URLSearchParams(body),
          arrivedAt: Date.now(),
          deliveryId,
          answeredWith: answer,
        });
        if (answer === 'hang') return;
        res.statusCode = answer;
        res.end('ok');
      });
    });
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Goes down: the port refuses connections until `start()` again. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  for(deliveryId: string): ReceivedCallback[] {
    return this.received.filter((r) => r.deliveryId === deliveryId);
  }

  ofTransaction(transId: string): ReceivedCallback[] {
    return this.received.filter((r) => r.fields.get('trans_id') === transId);
  }
}
