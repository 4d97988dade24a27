import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, call, pkgParams } from '../api/client';
import { ErrorNote } from '../components/ui';
import { renderMarkdown } from '../lib/markdown';

/** A package's README, rendered from markdown and sanitized (no scripts from a repository). */
export default function Readme({ name, syncedAt }: { name: string; syncedAt: string | null }) {
  const readme = useQuery({
    queryKey: ['package', name, 'readme', syncedAt],
    queryFn: () =>
      call(
        api.GET('/api/v1/packages/{vendor}/{name}/readme', { params: { path: pkgParams(name) } }),
      ),
  });
  const content = readme.data?.content ?? null;
  const html = useMemo(() => (content ? renderMarkdown(content) : null), [content]);
  if (readme.isError) return <ErrorNote error={readme.error} />;
  if (!readme.data) return null;
  if (!html) return <p className="muted">This package has no readme.</p>;
  // Sanitized by renderMarkdown (DOMPurify): the one place the UI sets HTML.
  return <article className="readme" dangerouslySetInnerHTML={{ __html: html }} />;
}
