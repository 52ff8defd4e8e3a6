/**
 * The open-loop sender's HTTP/1.1 client: POSTs over kept-alive TCP sockets, one request at a time
 * per socket (no pipelining, so a slow answer never holds another back), a new socket whenever
 * none is free. The bench's load comes from the same two cores as the server it measures, so the
 * sender's own CPU is taken from the server: `http.request` cost about 0.22-0.25 ms of CPU per SALE
 * at 1,000/s (a fifth of a core), this client a fraction of that (measured with `npm run bench`). It reads
 * exactly what the gateway and the floor server answer: a status line, headers, and a body framed
 * by Content-Length or chunked.
 */
import net from 'node:net';

export interface LeanResponse {
  status: number;
  body: string;
}

interface Pending {
  resolve(response: LeanResponse): void;
  reject(error: Error): void;
}

const HEADER_END = Buffer.from('\r\n\r\n');

class Connection {
  private buffer: Buffer = Buffer.alloc(0);
  private pending: Pending | null = null;
  closed = false;

  constructor(
    readonly socket: net.Socket,
    private readonly release: (connection: Connection) => void,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.parse();
    });
    const fail = (error: Error) => {
      this.closed = true;
      const pending = this.pending;
      this.pending = null;
      pending?.reject(error);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed before the answer')));
  }

  send(head: string, body: string): Promise<LeanResponse> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(head + body);
    });
  }

  private parse(): void {
    if (!this.pending) return;
    const end = this.buffer.indexOf(HEADER_END);
    if (end < 0) return;
    const head = this.buffer.toString('latin1', 0, end);
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    const start = end + HEADER_END.length;
    let body: Buffer;
    let consumed: number;
    if (length) {
      consumed = start + Number(length[1]);
      if (this.buffer.length < consumed) return;
      body = this.buffer.subarray(start, consumed);
    } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      const chunks: Buffer[] = [];
      let at = start;
      for (;;) {
        const lineEnd = this.buffer.indexOf('\r\n', at);
        if (lineEnd < 0) return;
        const size = parseInt(this.buffer.toString('latin1', at, lineEnd), 16);
        if (Number.isNaN(size)) return this.abandon(new Error(`bad chunk size in an answer: ${head.split('\r\n')[0]}`));
        const dataStart = lineEnd + 2;
        if (this.buffer.length < dataStart + size + 2) return;
        if (size === 0) {
          consumed = dataStart + 2;
          break;
        }
        chunks.push(this.buffer.subarray(dataStart, dataStart + size));
        at = dataStart + size + 2;
      }
      body = Buffer.concat(chunks);
    } else {
      return this.abandon(new Error(`an answer without Content-Length or chunked framing: ${head.split('\r\n')[0]}`));
    }
    this.buffer = this.buffer.subarray(consumed);
    const pending = this.pending;
    this.pending = null;
    if (/\r\nconnection:\s*close/i.test(head)) {
      this.closed = true;
      this.socket.end();
    }
    pending.resolve({ status, body: body.toString('utf8') });
    if (!this.closed) this.release(this);
  }

  private abandon(error: Error): void {
    const pending = this.pending;
    this.pending = null;
    this.closed = true;
    this.socket.destroy();
    pending?.reject(error);
  }
}

export class LeanHttpClient {
  private readonly idle: Connection[] = [];
  private readonly all = new Set<Connection>();
  private readonly headPrefix: string;

  constructor(
    private readonly url: URL,
    contentType: string,
  ) {
    this.headPrefix =
      `POST ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n` +
      `Content-Type: ${contentType}\r\nConnection: keep-alive\r\nContent-Length: `;
  }

  /** POSTs `body` (ASCII or UTF-8 text) and resolves with the whole answer. */
  post(body: string): Promise<LeanResponse> {
    const connection = this.take();
    return connection.send(`${this.headPrefix}${Buffer.byteLength(body)}\r\n\r\n`, body);
  }

  close(): void {
    for (const connection of this.all) connection.socket.destroy();
    this.all.clear();
    this.idle.length = 0;
  }

  private take(): Connection {
    for (;;) {
      const connection = this.idle.pop();
      if (!connection) break;
      if (!connection.closed) return connection;
    }
    const socket = net.connect({ host: this.url.hostname, port: Number(this.url.port || 80) });
    const connection = new Connection(socket, (c) => this.idle.push(c));
    this.all.add(connection);
    socket.once('close', () => this.all.delete(connection));
    return connection;
  }
}
