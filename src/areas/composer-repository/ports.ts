import type { MetadataKind } from '../../composer/metadata.js';
import type { RenderedDocument } from './rendered-document.js';

/** Public packages served beside the private ones: the proxy (areas/proxy) when it is on. */
export interface PublicPackages {
  readonly enabled: boolean;
  document(
    tenantId: string,
    name: string,
    kind: MetadataKind,
    origin: string,
  ): Promise<{ doc: RenderedDocument; validUntilMs: number }>;
}

/** The advisories each p2 document carries (areas/advisories), when the edition has them. */
export interface PackageAdvisories {
  /** The package's records, and when the latest of them last changed (0 when none). */
  forPackage(
    tenantId: string,
    name: string,
    origin: string,
  ): Promise<{ records: unknown[]; changedMs: number }>;
}

/** A p2 answer: a body to render, or (public documents) one rendered already. */
export interface PackageDocument {
  body: unknown;
  lastModified: Date;
  rendered?: RenderedDocument;
  /** The answer must be recomputed after this (ISO), e.g. when kept metadata needs revalidating. */
  validUntil?: string;
}
