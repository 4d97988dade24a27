import type { Ctx } from '../../context.js';

/** The inbound webhook routes of docs/webhooks.md. */
export const WEBHOOK_PROVIDERS = ['github', 'gitlab', 'bitbucket', 'hostapp', 'payment'] as const;
export type WebhookProvider = (typeof WEBHOOK_PROVIDERS)[number];

/** The description's neutral route words, accepted as aliases of the canonical ones. */
export const PROVIDER_ALIASES: Readonly<Record<string, WebhookProvider>> = {
  'provider-a': 'github',
  'provider-b': 'gitlab',
  'provider-c': 'bitbucket',
};

export type WebhookHeaders = Record<string, string | string[] | undefined>;

/** What handling one delivery did. */
export interface WebhookResult {
  /** queued: background work (syncs) was queued; processed: done at once; ignored: nothing to do. */
  status: 'queued' | 'processed' | 'ignored';
  /** Packages the delivery matched (ids), listed under each package's webhook deliveries. */
  packageIds?: string[];
  /** Why it was ignored, or what was done, in a few words. */
  message?: string;
}

/** One provider's part: how its deliveries are signed, named, and what they trigger. */
export interface WebhookAdapter {
  /** Checks the signature over the raw body in constant time (the secret is set). */
  verify(rawBody: Buffer, headers: WebhookHeaders, secret: string): boolean;
  /**
   * The event kind: from the headers alone first (recorded even when the signature is refused),
   * then again with the verified payload (Stripe names its events in the body).
   */
  eventOf(headers: WebhookHeaders, payload?: unknown): string;
  /** The sender's id of this delivery, for ignoring replays; read after verification. */
  deliveryIdOf(headers: WebhookHeaders, payload: unknown): string | null;
  handle(ctx: Ctx, event: string, payload: unknown): Promise<WebhookResult>;
}

/** Builds an adapter from the few services it acts on (never the whole set). */
export type WebhookAdapterFactory<D> = (deps: D) => WebhookAdapter;

/** A header's value as one string (first of repeated headers), or null. */
export function header(headers: WebhookHeaders, name: string): string | null {
  const value = headers[name.toLowerCase()];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === '' ? null : first;
}
