import type { CollectionDto } from './schema.js';
import type { CollectionView } from './service.js';

export function presentCollection(view: CollectionView): CollectionDto {
  return {
    slug: view.row.slug,
    name: view.row.name,
    packages: view.packages,
    created_at: view.row.created_at,
    updated_at: view.row.updated_at,
  };
}
