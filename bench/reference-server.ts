import fs from 'node:fs';
import http from 'node:http';
import Fastify from 'fastify';
import { ChildServer, freePort } from './processes.js';

/**
 * Reference servers answering each path with bytes captured from Packyard, from memory:
 * - `node`: a bare node:http server, the floor no server can beat on this machine;
 * - `fastify`: a single Fastify route, what the framework alone costs on top of the floor.
 * Each runs as its own process, started by startReference().
 */
export type ReferenceKind = 'node' | 'fastify';

function loadBodies(file: string): Map<string, Buffer> {
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
  return new Map(Object.entries(raw).map(([p, b64]) => [p, Buffer.from(b64, 'base64')]));
}

function serveNode(bodies: Map<string, Buffer>, port: number, more: Record<string, string>): void {
  http
    .createServer((req, res) => {
      const body = bodies.get(req.url ?? '');
      if (!body) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': body.length,
        ...more,
      });
      res.end(body);
    })
    .listen(port, '127.0.0.1');
}

async function serveFastify(bodies: Map<string, Buffer>, port: number): Promise<void> {
  const app = Fastify({ logger: false });
  app.get('/p2/:vendor/:file', async (req, reply) => {
    const body = bodies.get(req.url);
    if (!body) return reply.code(404).send();
    return reply.type('application/json').send(body);
  });
  await app.listen({ port, host: '127.0.0.1' });
}

/**
 * Starts a reference server in a child process over `bodies` (path → response bytes); the
 * `node` one adds `headers` to each answer (`content-encoding: gzip` over gzip bodies).
 */
export async function startReference(
  kind: ReferenceKind,
  bodies: Map<string, Buffer>,
  tmpFile: string,
  headers: Record<string, string> = {},
): Promise<ChildServer> {
  fs.writeFileSync(
    tmpFile,
    JSON.stringify(Object.fromEntries([...bodies].map(([p, b]) => [p, b.toString('base64')]))),
  );
  const port = await freePort();
  const [first = '/'] = bodies.keys();
  return ChildServer.start({
    label: `${kind} reference server`,
    port,
    nodeArgs: ['--import', 'tsx', import.meta.filename, 'serve'],
    env: {
      REFERENCE_KIND: kind,
      REFERENCE_BODIES: tmpFile,
      REFERENCE_PORT: String(port),
      REFERENCE_HEADERS: JSON.stringify(headers),
    },
    ready: async (url) => {
      const res = await fetch(url + first);
      await res.arrayBuffer();
      return res.ok;
    },
  });
}

if (process.argv[2] === 'serve') {
  const { REFERENCE_KIND: kind, REFERENCE_BODIES: file, REFERENCE_PORT: port } = process.env;
  if (!file || !port) throw new Error('REFERENCE_BODIES and REFERENCE_PORT are required');
  const bodies = loadBodies(file);
  const headers = JSON.parse(process.env.REFERENCE_HEADERS ?? '{}') as Record<string, string>;
  if (kind === 'fastify') await serveFastify(bodies, Number(port));
  else serveNode(bodies, Number(port), headers);
}
