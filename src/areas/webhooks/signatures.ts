import crypto from 'node:crypto';

/** Constant-time equality of two strings (false, without leaking where, when lengths differ). */
export function safeEqual(a: string, b: string): boolean {
  const left = crypto.createHash('sha256').update(a).digest();
  const right = crypto.createHash('sha256').update(b).digest();
  // Comparing digests keeps the time independent of the lengths too.
  return crypto.timingSafeEqual(left, right) && a.length === b.length;
}

export function hmacSha256Hex(secret: string, data: Buffer | string): string {
  return crypto.createHmac('sha256', secret).update(data).digest('hex');
}

/** `sha256=<hex HMAC-SHA256(secret, body)>`: GitHub's X-Hub-Signature-256, Bitbucket's X-Hub-Signature. */
export function verifyHubSignature(
  body: Buffer,
  signature: string | null,
  secret: string,
): boolean {
  if (signature === null) return false;
  return safeEqual(signature.trim().toLowerCase(), `sha256=${hmacSha256Hex(secret, body)}`);
}

/** GitLab sends the secret itself in X-Gitlab-Token. */
export function verifySharedToken(token: string | null, secret: string): boolean {
  return token !== null && safeEqual(token, secret);
}

/** Stripe's tolerance between its timestamp and our clock. */
export const STRIPE_TOLERANCE_SECONDS = 300;

/**
 * `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, "t.body")>[,v1=…]`: one v1 must match and
 * the timestamp must be within the tolerance (a replayed old delivery is refused).
 */
export function verifyStripeSignature(
  body: Buffer,
  signature: string | null,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  if (signature === null) return false;
  let timestamp: string | null = null;
  const candidates: string[] = [];
  for (const part of signature.split(',')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') timestamp = value;
    else if (key === 'v1') candidates.push(value.toLowerCase());
  }
  if (timestamp === null || !/^\d{1,12}$/.test(timestamp) || candidates.length === 0) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > STRIPE_TOLERANCE_SECONDS) return false;
  const expected = hmacSha256Hex(secret, Buffer.concat([Buffer.from(`${timestamp}.`), body]));
  // Check every candidate so the time does not depend on which one matched.
  return candidates.map((c) => safeEqual(c, expected)).includes(true);
}
