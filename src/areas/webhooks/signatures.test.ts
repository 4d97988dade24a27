import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  STRIPE_TOLERANCE_SECONDS,
  hmacSha256Hex,
  safeEqual,
  verifyHubSignature,
  verifySharedToken,
  verifyStripeSignature,
} from './signatures.js';

const SECRET = "It's a Secret to Everybody";
const BODY = Buffer.from('Hello, World!');

describe('webhook signatures', () => {
  it('computes GitHub’s documented example HMAC', () => {
    // From GitHub's "Validating webhook deliveries" page.
    expect(hmacSha256Hex(SECRET, BODY)).toBe(
      '757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
    );
  });

  it('accepts a correct hub signature, whatever its hex case', () => {
    const sig = `sha256=${hmacSha256Hex(SECRET, BODY)}`;
    expect(verifyHubSignature(BODY, sig, SECRET)).toBe(true);
    expect(verifyHubSignature(BODY, sig.toUpperCase().replace('SHA256', 'sha256'), SECRET)).toBe(
      true,
    );
  });

  it('refuses a wrong, truncated, other-scheme or missing hub signature', () => {
    const good = hmacSha256Hex(SECRET, BODY);
    expect(verifyHubSignature(BODY, `sha256=${hmacSha256Hex('other', BODY)}`, SECRET)).toBe(false);
    expect(verifyHubSignature(Buffer.from('Hello, World?'), `sha256=${good}`, SECRET)).toBe(false);
    expect(verifyHubSignature(BODY, `sha256=${good.slice(0, 40)}`, SECRET)).toBe(false);
    expect(verifyHubSignature(BODY, good, SECRET)).toBe(false);
    const sha1 = crypto.createHmac('sha1', SECRET).update(BODY).digest('hex');
    expect(verifyHubSignature(BODY, `sha1=${sha1}`, SECRET)).toBe(false);
    expect(verifyHubSignature(BODY, null, SECRET)).toBe(false);
    expect(verifyHubSignature(BODY, '', SECRET)).toBe(false);
  });

  it('checks GitLab’s shared token exactly', () => {
    expect(verifySharedToken('s3cret', 's3cret')).toBe(true);
    expect(verifySharedToken('s3cret ', 's3cret')).toBe(false);
    expect(verifySharedToken('S3CRET', 's3cret')).toBe(false);
    expect(verifySharedToken('s3cre', 's3cret')).toBe(false);
    expect(verifySharedToken(null, 's3cret')).toBe(false);
  });

  it('compares in constant time without throwing on different lengths', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
  });

  describe('Stripe-Signature', () => {
    const now = 1_800_000_000;
    const sign = (t: number, secret = SECRET) =>
      hmacSha256Hex(secret, Buffer.concat([Buffer.from(`${t}.`), BODY]));

    it('accepts a correct signature within the tolerance', () => {
      expect(verifyStripeSignature(BODY, `t=${now},v1=${sign(now)}`, SECRET, now)).toBe(true);
      const edge = now - STRIPE_TOLERANCE_SECONDS;
      expect(verifyStripeSignature(BODY, `t=${edge},v1=${sign(edge)}`, SECRET, now)).toBe(true);
      const ahead = now + STRIPE_TOLERANCE_SECONDS;
      expect(verifyStripeSignature(BODY, `t=${ahead},v1=${sign(ahead)}`, SECRET, now)).toBe(true);
    });

    it('refuses timestamps outside the 5-minute tolerance, even correctly signed', () => {
      const old = now - STRIPE_TOLERANCE_SECONDS - 1;
      expect(verifyStripeSignature(BODY, `t=${old},v1=${sign(old)}`, SECRET, now)).toBe(false);
      const future = now + STRIPE_TOLERANCE_SECONDS + 1;
      expect(verifyStripeSignature(BODY, `t=${future},v1=${sign(future)}`, SECRET, now)).toBe(
        false,
      );
    });

    it('accepts when any of several v1 values matches (secret rotation), and ignores v0', () => {
      const header = `t=${now},v1=${sign(now, 'old-secret')},v1=${sign(now)},v0=deadbeef`;
      expect(verifyStripeSignature(BODY, header, SECRET, now)).toBe(true);
      const none = `t=${now},v1=${sign(now, 'a')},v1=${sign(now, 'b')}`;
      expect(verifyStripeSignature(BODY, none, SECRET, now)).toBe(false);
      expect(verifyStripeSignature(BODY, `t=${now},v0=${sign(now)}`, SECRET, now)).toBe(false);
    });

    it('refuses a wrong, tampered, malformed or missing header', () => {
      expect(verifyStripeSignature(BODY, `t=${now},v1=${sign(now, 'x')}`, SECRET, now)).toBe(false);
      expect(
        verifyStripeSignature(Buffer.from('other'), `t=${now},v1=${sign(now)}`, SECRET, now),
      ).toBe(false);
      // The timestamp is signed: changing it breaks the signature.
      expect(verifyStripeSignature(BODY, `t=${now + 1},v1=${sign(now)}`, SECRET, now)).toBe(false);
      expect(verifyStripeSignature(BODY, `v1=${sign(now)}`, SECRET, now)).toBe(false);
      expect(verifyStripeSignature(BODY, `t=${now}`, SECRET, now)).toBe(false);
      expect(verifyStripeSignature(BODY, `t=abc,v1=${sign(now)}`, SECRET, now)).toBe(false);
      expect(verifyStripeSignature(BODY, 'garbage', SECRET, now)).toBe(false);
      expect(verifyStripeSignature(BODY, null, SECRET, now)).toBe(false);
    });
  });
});
