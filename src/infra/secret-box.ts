import crypto from 'node:crypto';

/** Thrown when a stored value cannot be opened: another key, an altered value, or not ours. */
export class SecretBoxError extends Error {}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
// Fixed, public inputs of the key derivation: they separate this use of ENCRYPTION_KEY from any
// other the project may add later (a different `info` gives an unrelated key).
const SALT = Buffer.from('packyard secret-box');
const INFO = Buffer.from('packyard secret-box v1 aes-256-gcm');

/**
 * Encryption at rest for secrets the service must read back (OAuth access and refresh tokens):
 * AES-256-GCM with a key derived from ENCRYPTION_KEY by HKDF-SHA256 and a random 12-byte IV per
 * value. The stored text is `v1:<iv>:<tag>:<ciphertext>`, each part base64url, so the format can
 * change later without guessing. `context` (for example `oauth:<tenant>:<provider>:access`) is
 * authenticated but not stored: a value copied to another row does not open there.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secret: string) {
    if (secret.length < 32) throw new SecretBoxError('The encryption key must be >= 32 characters');
    this.key = Buffer.from(crypto.hkdfSync('sha256', Buffer.from(secret, 'utf8'), SALT, INFO, 32));
  }

  encrypt(plain: string, context = ''): string {
    const iv = crypto.randomBytes(IV_BYTES);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv, tag, data].map((p) => (typeof p === 'string' ? p : b64(p))).join(':');
  }

  decrypt(stored: string, context = ''): string {
    const parts = stored.split(':');
    if (parts[0] !== VERSION || parts.length !== 4) {
      throw new SecretBoxError('Not an encrypted value this version of Packyard can read');
    }
    const [iv, tag, data] = parts.slice(1).map((p) => Buffer.from(p, 'base64url'));
    if (!iv || iv.length !== IV_BYTES || !tag || tag.length !== TAG_BYTES || !data) {
      throw new SecretBoxError('Encrypted value is malformed');
    }
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, iv, {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError(
        'Cannot decrypt: the value was encrypted with another ENCRYPTION_KEY or was altered',
      );
    }
  }
}

function b64(bytes: Buffer): string {
  return bytes.toString('base64url');
}
