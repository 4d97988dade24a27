import dns from 'node:dns';
import type { LookupAddress } from 'node:dns';
import net from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { isPublicAddress } from '../../infra/git/host-guard.js';

/** A refused archive host: the name is, or resolves to, a non-public address. */
export class PrivateArchiveHost extends Error {
  constructor(host: string) {
    super(`the archive host ${host} is on a private network (BLOCK_PRIVATE_GIT_HOSTS)`);
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * Resolves like the system, then refuses unless every address is public. The connection uses the
 * very addresses checked here, so a second DNS answer (rebinding) cannot slip past the check.
 */
function publicOnlyLookup(
  hostname: string,
  options: dns.LookupOptions,
  callback: LookupCallback,
): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    if (addresses.length === 0 || !addresses.every((a) => isPublicAddress(a.address))) {
      return callback(new PrivateArchiveHost(hostname), []);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    return callback(null, first.address, first.family);
  });
}

const publicOnly = new Agent({ connect: { lookup: publicOnlyLookup } });

/**
 * fetch that connects only to public addresses (archive URLs named by upstream metadata, when
 * BLOCK_PRIVATE_GIT_HOSTS is on). An address literal is judged before connecting, a name by the
 * lookup that the connection then uses.
 */
export async function fetchPublicOnly(url: URL, init: RequestInit): Promise<Response> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && !isPublicAddress(host)) throw new PrivateArchiveHost(host);
  try {
    const res = await undiciFetch(url, {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher: publicOnly,
    });
    return res;
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof PrivateArchiveHost) throw cause;
    throw err;
  }
}
