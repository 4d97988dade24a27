import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { id: string; type: string; created_at: string; data: Record<string, unknown> };
}

/**
 * A real HTTP receiver on loopback for the tests: records every POST, and answers with what
 * `answer` says for it (200 by default).
 */
export async function startReceiver() {
  const received: Received[] = [];
  /** A status, or `hang`: no answer until the client gives up. */
  let answer: (r: Received) => number | 'hang' = () => 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const r: Received = {
        headers: req.headers,
        body,
        json: JSON.parse(body) as Received['json'],
      };
      received.push(r);
      const status = answer(r);
      if (status === 'hang') return;
      res.statusCode = status;
      res.end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answerWith(fn: (r: Received) => number | 'hang') {
      answer = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
