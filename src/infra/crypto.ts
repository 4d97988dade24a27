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
  // The one-shot form (Node 20.12) costs less than half of createHash; every request digests.
  return oneShotHash
    ? oneShotHash('sha256', secret, 'hex')
    : crypto.createHash('sha256').update(secret).digest('hex');
}

const oneShotHash = (
  crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }
).hash;

export function constantTimeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ab.length !== bb.length) return false;
  return crypto.timingSafeEqual(ab, bb);
}

export function newId(): string {
  return crypto.randomUUID();
}

let lastMs = 0;
let sequence = 0;

/**
 * A UUIDv7 (RFC 9562): 48 bits of milliseconds, then a 12-bit counter that orders ids made in
 * the same millisecond by this process, then random bits. Sorting these as text sorts them by
 * creation, so rows made within one millisecond (an audit entry per step of a mutation) keep
 * their order.
 */
export function sortableId(): string {
  let ms = Date.now();
  if (ms <= lastMs) {
    sequence += 1;
    // 4,096 ids in one millisecond: borrow the next one, as RFC 9562 allows.
    if (sequence > 0xfff) {
      lastMs += 1;
      sequence = 0;
    }
    ms = lastMs;
  } else {
    lastMs = ms;
    sequence = 0;
  }
  const bytes = crypto.randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
