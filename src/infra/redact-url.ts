/**
 * Credentials out of URLs before they are logged: a request line (`/p2/acme/lib.json?token=…`), a
 * repository URL (`https://user:pass@host/…`), or any text holding them (an error's message).
 * Logs only: what is redacted is gone, so it errs on the side of hiding.
 */

const CENSOR = '[redacted]';

/** Query parameter names, or words of them, that name a secret. */
const SECRET_WORDS = new Set([
  'token',
  'key',
  'sig',
  'signature',
  'code',
  'state',
  'auth',
  'authorization',
  'password',
  'passwd',
  'pass',
  'pwd',
  'secret',
  'session',
  'sid',
  'jwt',
  'otp',
  'nonce',
  'ticket',
  'credential',
  'credentials',
  'hmac',
  'assertion',
  'cookie',
]);
/** Parts that name a secret wherever they stand in a name (`access_token`, `clientSecret`). */
const SECRET_PARTS = /token|passw|secret|signature|credential|apikey|accesskey|privatekey/i;

/** Whether a query parameter named `name` may carry a secret. */
export function isSecretParameter(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    // A malformed escape: judge the name as it is.
  }
  if (SECRET_PARTS.test(decoded)) return true;
  const words = decoded
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((word) => SECRET_WORDS.has(word));
}

/** `name=value` after `?`, `&`, `;` or `#`; the value ends where a URL in text would. */
const PARAMETER = /([?&;#])([^=&;#?\s"'<>]+)=([^&;#\s"'<>]*)/g;
/** Packyard's own secrets (customer `pkt_`, team `cma_`, generated root `pya_`) wherever they stand. */
const PACKYARD_SECRET = /\b(pkt|cma|pya)_[A-Za-z0-9]{6,}/g;
/** A JSON Web Token (customer JWTs authenticate too). */
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
/** `scheme://user:password@` (or a bare token before `@`). */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s"'<>]+@/gi;

/**
 * `text` (a URL, or any text holding URLs) with credentials replaced by `[redacted]`: the values
 * of query parameters whose name suggests a secret (token, access_token, password, secret, key,
 * signature, sig, code, state, …), any `pkt_…`/`cma_…`/`pya_…` value or JWT wherever it stands, and the
 * user-info of every URL. Everything else is kept as it was.
 */
export function redactUrl(text: string): string {
  return text
    .replace(PARAMETER, (match, separator: string, name: string) =>
      isSecretParameter(name) ? `${separator}${name}=${CENSOR}` : match,
    )
    .replace(PACKYARD_SECRET, `$1_${CENSOR}`)
    .replace(JWT, CENSOR)
    .replace(USERINFO, `$1${CENSOR}@`);
}
