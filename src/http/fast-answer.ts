import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

/**
 * An answer made before the framework sees the request (the metadata fast path), in a form both
 * transports write: node:http's ServerResponse and the connection layer of fast-connections.ts.
 */
export interface FastAnswer {
  status: 200 | 304 | 429;
  /** Flat name, value list, as `writeHead` takes it; Date and Connection are the transport's. */
  headers: (string | number)[];
  body?: Buffer;
  /**
   * The same answer's header entries from `headers[wireAfter]` on, as lines ending with the empty
   * line, followed by `body`: prepared once per document, so a transport that writes bytes sends
   * the lines before them and this, without building or copying the rest.
   */
  wire?: Buffer;
  wireAfter?: number;
}

/** The request as the fast path reads it: the method, the target and a few headers. */
export interface FastRequest {
  method?: string;
  url?: string;
  headers: Pick<
    IncomingHttpHeaders,
    'authorization' | 'host' | 'accept-encoding' | 'if-none-match' | 'if-modified-since'
  >;
  /**
   * What the answerer may keep for the next request of the same connection (the connection
   * layer's requests carry one per connection; node:http's none).
   */
  memo?: ConnectionMemo;
}

/**
 * The credentials a connection sent last and their digest. Clients send the same Authorization
 * header on every request of a connection, so its digest is made once per connection. Only
 * headers of the same connection are ever compared with it, so that comparison reveals nothing
 * about anybody else's secret.
 */
export interface ConnectionMemo {
  authorization?: string;
  secretDigest?: string;
}

/**
 * Answers a request from memory, or returns null when it does not (and has touched nothing): the
 * request then takes the framework's route. A Promise when a shared counter must be asked first.
 */
export type FastAnswerer = (req: FastRequest) => FastAnswer | Promise<FastAnswer> | null;

export function writeFastAnswer(res: ServerResponse, answer: FastAnswer): void {
  res.writeHead(answer.status, answer.headers).end(answer.body);
}
