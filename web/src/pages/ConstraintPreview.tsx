import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, call, pkgParams } from '../api/client';
import { describeError } from '../lib/errors';
import { useDebounced } from '../lib/use-debounced';

/** A package name as the API takes it, or null while the field holds something else. */
export function previewTarget(pkg: string, constraint: string) {
  const name = pkg.trim().toLowerCase();
  const c = constraint.trim() || '*';
  return /^[a-z0-9]([_.-]?[a-z0-9]+)*\/[a-z0-9](([_.]|-{1,2})?[a-z0-9]+)*$/.test(name)
    ? { name, constraint: c }
    : null;
}

/**
 * Which of the package's versions the constraint makes visible, computed by the server's own
 * constraint engine (GET …/versions?constraint=), as the person types.
 */
export function ConstraintPreview({ pkg, constraint }: { pkg: string; constraint: string }) {
  const target = useDebounced(previewTarget(pkg, constraint), 300);
  const preview = useQuery({
    queryKey: ['preview', target?.name, target?.constraint],
    enabled: target !== null,
    placeholderData: keepPreviousData,
    queryFn: () =>
      call(
        api.GET('/api/v1/packages/{vendor}/{name}/versions', {
          params: {
            path: pkgParams(target?.name ?? ''),
            query: { constraint: target?.constraint ?? '*' },
          },
        }),
      ),
  });
  let text: string;
  if (!target) text = 'Name a package (vendor/name) to preview the versions this grant shows.';
  else if (preview.isError) text = describeError(preview.error);
  else if (!preview.data) text = 'Checking…';
  else {
    const { versions, total_versions: total, yanked } = preview.data;
    text =
      versions.length === 0
        ? `This constraint shows none of the ${total} versions of ${preview.data.name}.`
        : `Visible: ${versions.map((v) => v.version).join(', ')} (${versions.length} of ${total}).`;
    if (yanked.length > 0) text += ` Matched but yanked: ${yanked.join(', ')}.`;
  }
  return (
    <p className="preview" role="status" aria-live="polite" aria-label="Constraint preview">
      {text}
    </p>
  );
}
