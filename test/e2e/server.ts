import net from 'node:net';
import { createTestApp } from '../helpers.js';
import type { TestApp } from '../helpers.js';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface RunningServer extends TestApp {
  url: string;
}

/** A real listening server, so the real Composer client can talk to it over HTTP. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ BASE_URL: url, PORT: String(port), ...env });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { ...t, url };
}
