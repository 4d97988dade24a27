import { unauthorized } from '../../errors.js';
import type { Credentials } from '../auth/service.js';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The customer secret a Composer request carries: HTTP Basic with the username `token`, or a
 * Bearer token. Malformed headers are a 401 with a message saying what is wrong.
 */
export function customerSecret(header: string | undefined): string {
  if (!header) throw unauthorized('Credentials are required: use HTTP Basic with username "token"');
  const [scheme = '', value = ''] = header.trim().split(/\s+/, 2);
  if (/^bearer$/i.test(scheme) && value) return value;
  if (!/^basic$/i.test(scheme) || !value) {
    throw unauthorized('Unsupported Authorization header: use HTTP Basic or Bearer');
  }
  if (value.length % 4 !== 0 || !BASE64.test(value)) {
    throw unauthorized('Malformed HTTP Basic credentials: not base64');
  }
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw unauthorized('Malformed HTTP Basic credentials: expected "token:<value>"');
  if (decoded.slice(0, colon) !== 'token') {
    throw unauthorized('HTTP Basic username must be "token"');
  }
  return decoded.slice(colon + 1);
}

/** The same, with the scheme it came in, for `AuthService.authenticate`. */
export function customerCredentials(header: string | undefined): Credentials {
  const secret = customerSecret(header);
  const bearer = /^\s*bearer\s/i.test(header ?? '');
  return { scheme: bearer ? 'bearer' : 'basic', secret };
}
