import { ApiError } from '../lib/errors';
import { createRestClient } from '../lib/rest-client';
import { adminToken } from '../lib/token-store';

/** Fired when the server says the stored token no longer works (401). */
export const SIGNED_OUT_EVENT = 'packyard:signed-out';

/** The typed REST client: paths and bodies come from the server's OpenAPI document. */
export const api = createRestClient(adminToken, SIGNED_OUT_EVENT);

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
