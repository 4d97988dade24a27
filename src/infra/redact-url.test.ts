import { describe, expect, it } from 'vitest';
import { isSecretParameter, redactUrl } from './redact-url.js';

describe('redactUrl', () => {
  it('redacts query parameters whose name suggests a secret, keeping the others', () => {
    expect(
      redactUrl(
        '/p2/acme/hello.json?token=abc&access_token=def&password=ghi&secret=jkl&key=mno' +
          '&signature=pqr&sig=stu&code=vwx&state=yz1&page=2&search=acme',
      ),
    ).toBe(
      '/p2/acme/hello.json?token=[redacted]&access_token=[redacted]&password=[redacted]' +
        '&secret=[redacted]&key=[redacted]&signature=[redacted]&sig=[redacted]&code=[redacted]' +
        '&state=[redacted]&page=2&search=acme',
    );
    expect(
      redactUrl(
        'https://bucket.s3.test/a.zip?X-Amz-Credential=AKIA1&X-Amz-Signature=ff&X-Amz-Expires=60',
      ),
    ).toBe(
      'https://bucket.s3.test/a.zip?X-Amz-Credential=[redacted]&X-Amz-Signature=[redacted]&X-Amz-Expires=60',
    );
  });

  it('redacts Packyard tokens and JWTs wherever they stand', () => {
    const pkt = 'pkt_0123456789abcdefghijABCDEFGHIJ012345';
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjdXN0In0.c2lnbmF0dXJl';
    expect(redactUrl(`/p2/${pkt}/x.json?${pkt}`)).toBe('/p2/pkt_[redacted]/x.json?pkt_[redacted]');
    expect(redactUrl('/packages.json?pya_S726w2x8zBULC2fJL5GTut2bH')).toBe(
      '/packages.json?pya_[redacted]',
    );
    expect(redactUrl(`/dist/a?x=${jwt}&cma_abcdefgh12`)).toBe(
      '/dist/a?x=[redacted]&cma_[redacted]',
    );
  });

  it('redacts the user-info of URLs, alone or in a text', () => {
    expect(redactUrl('https://alice:s3cret@git.example.test/acme/lib.git')).toBe(
      'https://[redacted]@git.example.test/acme/lib.git',
    );
    expect(redactUrl('clone of https://ghp_abc@github.com/a/b.git failed: 128')).toBe(
      'clone of https://[redacted]@github.com/a/b.git failed: 128',
    );
  });

  it('leaves URLs without credentials as they were', () => {
    for (const url of [
      '/p2/acme/hello.json',
      '/api/v1/packages?page=2&per_page=50&search=acme%2Flib',
      'https://git.example.test/acme/lib.git',
      '/api/v1/audit?author=alice&status=failed',
    ]) {
      expect(redactUrl(url)).toBe(url);
    }
  });
});

describe('isSecretParameter', () => {
  it('judges names by their words and by secret parts', () => {
    for (const name of [
      'token',
      'accessToken',
      'client_secret',
      'AWSAccessKeyId',
      'api-key',
      'pass',
    ])
      expect(isSecretParameter(name), name).toBe(true);
    for (const name of ['page', 'per_page', 'cursor', 'author', 'status', 'design'])
      expect(isSecretParameter(name), name).toBe(false);
  });
});
