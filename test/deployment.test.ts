import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../src/config/index.js';

interface ComposeService {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  user?: string;
}

const compose = parse(fs.readFileSync('compose.yaml', 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const dockerfile = fs.readFileSync('Dockerfile', 'utf8');

/** Compose's `${VAR:-default}`, `${VAR:?message}` and `${VAR}`, filled in as an operator would. */
function interpolate(value: string): string {
  return String(value).replace(/\$\{(\w+)(?::-([^}]*)|:\?[^}]*)?\}/g, (_m, _name, fallback) =>
    typeof fallback === 'string' ? fallback : 'a-secret-of-32-characters-at-least',
  );
}

/** The settings a process reads: every key loadConfig looks up in the environment it is given. */
function settingsRead(env: Record<string, string>): Set<string> {
  const read = new Set<string>();
  const watched = new Proxy(env, {
    get(target, key) {
      if (typeof key === 'string') read.add(key);
      return target[key as string];
    },
  });
  loadConfig(watched);
  return read;
}

const packyardServices = Object.entries(compose.services).filter(
  ([, service]) => service.image === 'packyard:latest',
);

describe('Dockerfile and compose.yaml', () => {
  it('run web nodes, a worker and a migration from the Packyard image', () => {
    const names = packyardServices.map(([name]) => name).sort();
    expect(names).toEqual(['migrate', 'web1', 'web2', 'worker']);
    expect(compose.services.worker?.command).toEqual(['worker']);
    expect(compose.services.migrate?.command).toEqual(['migrate']);
    for (const name of ['postgres', 'redis', 'minio']) expect(compose.services[name]).toBeDefined();
  });

  it.each(packyardServices)(
    '%s names only settings that src/config/ reads, all valid',
    (_name, service) => {
      const env = Object.fromEntries(
        Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(v)]),
      );
      const read = settingsRead(env);
      expect(Object.keys(env).filter((key) => !read.has(key))).toEqual([]);
    },
  );

  it('the web nodes share PostgreSQL, Redis and the bucket, and leave tasks to the worker', () => {
    for (const name of ['web1', 'web2']) {
      const config = loadConfig(
        Object.fromEntries(
          Object.entries(compose.services[name]?.environment ?? {}).map(([k, v]) => [
            k,
            interpolate(v),
          ]),
        ),
      );
      expect(config.worker).toBe(false);
      expect(config.databaseUrl).toMatch(/^postgres:/);
      expect(config.redisUrl).toMatch(/^redis:/);
      expect(config.storage.kind).toBe('s3');
    }
  });

  it('the image runs as the unprivileged user and names only settings src/config/ reads', () => {
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2);
    const envBlock = /^ENV ((?:.*\\\n)*.*)$/m.exec(dockerfile)?.[1] ?? '';
    const env = Object.fromEntries(
      [...envBlock.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]),
    );
    expect(Object.keys(env).length).toBeGreaterThan(0);
    const read = settingsRead(env);
    expect(Object.keys(env).filter((key) => !read.has(key))).toEqual([]);
  });
});
