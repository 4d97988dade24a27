import { describe, expect, it } from 'vitest';
import { parseHead } from './fast-connections.js';

describe('parseHead', () => {
  const line = 'GET /p2/a/b.json HTTP/1.1';
  it('reads the request line and the headers the fast path uses', () => {
    const head = parseHead(`${line}\r\nHOST: h\r\nauthorization:  Basic x \r\nX-Other: y`);
    expect(head).toEqual({
      request: {
        method: 'GET',
        url: '/p2/a/b.json',
        headers: { host: 'h', authorization: 'Basic x' },
      },
      close: false,
    });
    expect(parseHead(`${line}\r\nHost: h\r\nConnection: keep-alive, close`)?.close).toBe(true);
  });

  it('returns null for whatever node:http must read', () => {
    for (const head of [
      'HEAD /p2/a/b.json HTTP/1.1',
      'GET /p2/a/b.json HTTP/1.0',
      `${line}\r\nAuthorization: Basic x`,
      'GET http://h/p2/a/b.json HTTP/1.1',
      `${line}\r\nContent-Length: 0`,
      `${line}\r\nTransfer-Encoding: chunked`,
      `${line}\r\nConnection: Upgrade\r\nUpgrade: h2c`,
      `${line}\r\nExpect: 100-continue`,
      `${line}\r\nHost: a\r\nHost: b`,
      `${line}\r\n folded: x`,
      `${line}\r\nX: a\nb`,
      `${line}\r\nX: caf\u00e9`,
      `${line}\r\nno-colon`,
    ]) {
      expect(parseHead(head), JSON.stringify(head)).toBeNull();
    }
  });
});
