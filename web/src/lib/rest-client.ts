import createClient from 'openapi-fetch';
import type { paths } from '../api/openapi';
import type { TokenStore } from './token-store';

/**
 * A typed REST client (paths and bodies from the server's OpenAPI document) that sends the
 * token of `tokens` as Bearer on every call, and when the server says that token no longer works
 * (401) forgets it and fires `signedOutEvent` on the window.
 */
export function createRestClient(tokens: TokenStore, signedOutEvent: string) {
  const client = createClient<paths>({ baseUrl: '' });
  client.use({
    onRequest({ request }) {
      const token = tokens.read();
      if (token && !request.headers.has('authorization')) {
        request.headers.set('authorization', `Bearer ${token}`);
      }
      return request;
    },
    onResponse({ response }) {
      if (response.status === 401 && tokens.read()) {
        tokens.clear();
        window.dispatchEvent(new Event(signedOutEvent));
      }
      return response;
    },
  });
  return client;
}
