import http from 'node:http';

/** One node of GitHub's `securityVulnerabilities` connection, as its GraphQL API answers it. */
export interface FakeVulnerability {
  package: { name: string };
  vulnerableVersionRange: string;
  advisory: {
    ghsaId: string;
    summary: string;
    description: string | null;
    permalink: string;
    publishedAt: string;
    withdrawnAt: string | null;
    severity: 'LOW' | 'MODERATE' | 'HIGH' | 'CRITICAL';
    identifiers: { type: string; value: string }[];
  };
}

/**
 * GitHub's GraphQL endpoint for the advisory database, enough of it for Packyard's source: POST
 * /graphql with a bearer token, `securityVulnerabilities(ecosystem: COMPOSER, after: $cursor)`
 * answered in pages of `pageSize` with opaque cursors, `failNext` answers 502 first.
 */
export class FakeGitHubAdvisories {
  url = '';
  pageSize = 2;
  failNext = 0;
  readonly requests: { authorization: string | undefined; cursor: string | null }[] = [];
  private server: http.Server | null = null;

  constructor(
    public vulnerabilities: FakeVulnerability[],
    private readonly token: string,
  ) {}

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.answer(req, Buffer.concat(chunks), res));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private answer(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse): void {
    const json = (status: number, value: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    };
    if (req.method !== 'POST' || req.url !== '/graphql') return json(404, { message: 'Not Found' });
    const { query, variables } = JSON.parse(body.toString('utf8') || '{}') as {
      query?: string;
      variables?: { cursor?: string | null };
    };
    const cursor = variables?.cursor ?? null;
    this.requests.push({ authorization: req.headers.authorization, cursor });
    if (this.failNext > 0) {
      this.failNext--;
      res.writeHead(502).end('Bad Gateway');
      return;
    }
    if (req.headers.authorization !== `Bearer ${this.token}`) {
      return json(401, { message: 'Bad credentials' });
    }
    if (!query?.includes('securityVulnerabilities(ecosystem: COMPOSER')) {
      return json(200, { errors: [{ message: 'unexpected query' }] });
    }
    const start = cursor ? Number(Buffer.from(cursor, 'base64').toString('utf8')) : 0;
    const nodes = this.vulnerabilities.slice(start, start + this.pageSize);
    const next = start + nodes.length;
    json(200, {
      data: {
        securityVulnerabilities: {
          pageInfo: {
            hasNextPage: next < this.vulnerabilities.length,
            endCursor: nodes.length ? Buffer.from(String(next)).toString('base64') : null,
          },
          nodes,
        },
      },
    });
  }
}
