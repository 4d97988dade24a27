import { describe, expect, it } from 'vitest';
import { SecretBox, SecretBoxError } from './secret-box.js';

const KEY = 'k'.repeat(32);

describe('SecretBox', () => {
  it('round-trips a value in the versioned text format, with a fresh IV each time', () => {
    const box = new SecretBox(KEY);
    const a = box.encrypt('gho_secret-token');
    const b = box.encrypt('gho_secret-token');
    expect(a).toMatch(/^v1:[\w-]{16}:[\w-]{22}:[\w-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('gho_secret-token');
    expect(box.decrypt(a)).toBe('gho_secret-token');
    expect(new SecretBox(KEY).decrypt(b)).toBe('gho_secret-token');
    expect(box.decrypt(box.encrypt(''))).toBe('');
    expect(box.decrypt(box.encrypt('ünïcødé ✓'))).toBe('ünïcødé ✓');
  });

  it('refuses another key, a tampered value, another context and foreign text', () => {
    const box = new SecretBox(KEY);
    const sealed = box.encrypt('token', 'oauth:default:github:access');
    expect(box.decrypt(sealed, 'oauth:default:github:access')).toBe('token');

    const other = new SecretBox('another-key-that-is-long-enough-123');
    expect(() => other.decrypt(sealed, 'oauth:default:github:access')).toThrow(
      /another ENCRYPTION_KEY or was altered/,
    );
    expect(() => box.decrypt(sealed, 'oauth:default:gitlab:access')).toThrow(SecretBoxError);

    const [v, iv, tag, data] = sealed.split(':') as [string, string, string, string];
    const flipped = Buffer.from(data, 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    const tampered = [v, iv, tag, flipped.toString('base64url')].join(':');
    expect(() => box.decrypt(tampered, 'oauth:default:github:access')).toThrow(SecretBoxError);

    expect(() => box.decrypt('token')).toThrow(/Not an encrypted value/);
    expect(() => box.decrypt('v2:a:b:c')).toThrow(/Not an encrypted value/);
    expect(() => box.decrypt('v1:AAAA:BBBB:CCCC')).toThrow(/malformed/);
  });

  it('needs a key of at least 32 characters', () => {
    expect(() => new SecretBox('short')).toThrow(SecretBoxError);
  });
});
