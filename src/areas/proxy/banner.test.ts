import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/index.js';
import { proxyBannerLines } from './banner.js';

describe('the start banner about the proxy', () => {
  it('says it is on by default, what it does, and how to turn it off', () => {
    for (const edition of ['pro', 'enterprise']) {
      const text = proxyBannerLines(loadConfig({ EDITION: edition })).join('\n');
      expect(text, edition).toMatch(/^Proxy on: /);
      expect(text, edition).toContain('from https://repo.packagist.org (outbound requests;');
      expect(text, edition).toContain('PROXY_UPSTREAM_URL=off');
    }
    const cloud = loadConfig({ EDITION: 'cloud', BASE_DOMAIN: 'packages.example.com' });
    expect(proxyBannerLines(cloud)).not.toEqual([]);
  });

  it('names a configured upstream', () => {
    const config = loadConfig({ PROXY_UPSTREAM_URL: 'https://mirror.example.test/composer/' });
    expect(proxyBannerLines(config)[1]).toBe(
      '  from https://mirror.example.test/composer (outbound requests; 502 while it cannot be reached).',
    );
  });

  it('says nothing when the proxy is off or the edition has none', () => {
    expect(proxyBannerLines(loadConfig({ PROXY_UPSTREAM_URL: 'off' }))).toEqual([]);
    expect(proxyBannerLines(loadConfig({ EDITION: 'community' }))).toEqual([]);
  });
});
