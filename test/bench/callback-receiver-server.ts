/**
 * The merchant's side of the callback benchmark: answers every callback 200 at once and keeps, per
 * callback, the transaction id and the arrival time (wall clock, sub-millisecond). `GET /stats`
 * hands the records to the benchmark; `GET /health` says it is up. Listens on PORT, HOST.
 */
import http from 'node:http';

const arrivals: Array<[string, number, string]> = [];

const server = http.createServer((req, res) => {
  if (req.method === 'GET') {
    if (req.url === '/stats') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(arrivals));
      return;
    }
    res.end('ok');
    return;
  }
  const arrivedAt = performance.timeOrigin + performance.now();
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    const fields = new URLSearchParams(body);
    arrivals.push([fields.get('trans_id') ?? '', arrivedAt, String(req.headers['x-delivery-id'] ?? '')]);
    res.statusCode = 200;
    res.end('ok');
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT || '0'), process.env.HOST || '127.0.0.1');
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
