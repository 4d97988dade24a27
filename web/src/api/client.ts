import createClient from 'openapi-fetch';
import type { paths } from './openapi';
import { ApiError } from '../lib/errors';
import { clearToken, readToken } from '../lib/token-store';

/** The typed REST client: paths and bodies come from the server's OpenAPI document. */
export const api = createClient<paths>({ baseUrl: '' });

/** Fired when the server says the stored token no longer works (401). */
export const SIGNED_OUT_EVENT = 'packyard:signed-out';

api.use({
  onRequest({ request }) {
    const token = readToken();
    if (token && !request.headers.has('authorization')) {
      request.headers.set('authorization', `Bearer ${token}`);
    }
    return request;
  },
  onResponse({ response }) {
    if (response.status === 401 && readToken()) {
      clearToken();
      window.dispatchEvent(new Event(SIGNED_OUT_EVENT));
    }
    return response;
  },
});

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Awaits an openapi-fetch call: its data, or an ApiError carrying the contract's error body. */
export async function call<T>(request: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await request;
  } catch (err) {
    throw ApiError.network(err);
  }
  if (!answer.response.ok) throw ApiError.from(answer.response.status, answer.error);
  return answer.data as T;
}

/** `acme/lib` as the {vendor, name} path parameters. */
export function pkgParams(fullName: string): { vendor: string; name: string } {
  const [vendor = '', name = ''] = fullName.split('/');
  return { vendor, name };
}
