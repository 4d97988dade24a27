import { useMemo } from 'react';
import { renderMarkdown } from '../lib/markdown';

/** A package's README, rendered and sanitized by the admin UI's own renderer (DOMPurify). */
export default function PortalReadme({ content }: { content: string }) {
  const html = useMemo(() => renderMarkdown(content), [content]);
  // Sanitized by renderMarkdown: the one place the portal sets HTML.
  return <article className="readme" dangerouslySetInnerHTML={{ __html: html }} />;
}
