import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/index.js';
import { ERROR_STATUS } from '../src/errors.js';

/** Every key loadConfig looks up in the environment it is given (errors from bad combinations ignored). */
function settingsRead(env: Record<string, string>): Set<string> {
  const read = new Set<string>();
  const watched = new Proxy(env, {
    get(target, key) {
      if (typeof key !== 'string') return undefined;
      read.add(key);
      return target[key];
    },
  });
  try {
    loadConfig(watched);
  } catch {
    // A combination refused at start still shows which settings were read before it.
  }
  return read;
}

/** Settings some branches of the config only read when another setting selects them. */
const environments: Record<string, string>[] = [
  {},
  { STORAGE_URL: 's3://bucket/prefix', AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' },
  { EDITION: 'cloud', BASE_DOMAIN: 'packyard.example' },
  { REDIS_URL: 'redis://127.0.0.1:6379', TRUST_PROXY: '10.0.0.0/8' },
];

describe('docs stay true to the code', () => {
  it('docs/configuration.md lists every setting the server reads', () => {
    const doc = fs.readFileSync('docs/configuration.md', 'utf8');
    const read = new Set(environments.flatMap((env) => [...settingsRead(env)]));
    const missing = [...read].filter(
      (name) => !doc.includes(`\`${name}\``) && !doc.includes(`${name}=`),
    );
    expect(read.size).toBeGreaterThan(40);
    expect(missing).toEqual([]);
  });

  it('docs/api.md lists every error code with its status', () => {
    const doc = fs.readFileSync('docs/api.md', 'utf8');
    const missing = Object.entries(ERROR_STATUS).filter(
      ([code, status]) => !doc.includes(`| \`${code}\` | ${status} |`),
    );
    expect(missing).toEqual([]);
  });
});
