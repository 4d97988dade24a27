import crypto from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62(bytes: Buffer, length: number): string {
  let out = '';
  for (const byte of bytes) {
    if (out.length === length) break;
    // 248 = 4 * 62: rejecting larger bytes keeps every character equally likely.
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out.length === length
    ? out
    : out + base62(crypto.randomBytes(length), length - out.length);
}

function checksum(body: string): string {
  const digest = crypto.createHash('sha256').update(body).digest();
  return base62(digest, 6);
}

/**
 * A secret with a recognisable prefix and a checksum suffix, so secret scanners can find leaked
 * values and tell real ones from look-alikes (`pkt_…`, `cma_…`).
 */
export function generateSecret(prefix: string): string {
  const body = `${prefix}${base62(crypto.randomBytes(48), 32)}`;
  return body + checksum(body);
}

/** True when a secret carries a valid checksum for its prefix; cheap rejection before any lookup. */
export function hasValidChecksum(secret: string, prefix: string): boolean {
  if (!secret.startsWith(prefix) || secret.length !== prefix.length + 38) return false;
  return checksum(secret.slice(0, -6)) === secret.slice(-6);
}

/** Tokens are stored and looked up only by this digest. */
export function digest(secret: string): string {
  return crypto.createHash('sha256').update(secret).digest('hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ab.length !== bb.length) return false;
  return crypto.timingSafeEqual(ab, bb);
}

export function newId(): string {
  return crypto.randomUUID();
}
