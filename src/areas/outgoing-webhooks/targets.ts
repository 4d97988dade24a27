import type { Edition } from '../../config/index.js';
import { invalid } from '../../errors.js';
import { resolveTarget } from './sender.js';

/**
 * An endpoint's `url`: http(s), no credentials, and in Cloud no private or loopback target
 * (checked against every address the name resolves to now, and again at each delivery).
 */
export async function assertEndpointUrl(raw: string, edition: Edition): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('url', 'must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid('url', 'must be an http or https URL');
  }
  if (url.username !== '' || url.password !== '') {
    throw invalid('url', 'must not contain credentials; verify the signature instead');
  }
  if (edition === 'cloud') {
    try {
      await resolveTarget(url, true);
    } catch (err) {
      throw invalid('url', `cannot be delivered to: ${(err as Error).message}`);
    }
  }
  return url.toString();
}
