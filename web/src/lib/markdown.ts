import DOMPurify from 'dompurify';
import { marked } from 'marked';

/**
 * Markdown from a package's repository as HTML safe to insert: DOMPurify drops scripts, event
 * handlers, javascript: URLs, forms and embeds; links open without handing over the window.
 */
export function renderMarkdown(markdown: string): string {
  const raw = marked.parse(markdown, { async: false, gfm: true });
  const clean = DOMPurify.sanitize(raw, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe'],
    FORBID_ATTR: ['style'],
  });
  const doc = new DOMParser().parseFromString(clean, 'text/html');
  for (const a of doc.querySelectorAll('a[href]')) {
    a.setAttribute('rel', 'noopener noreferrer nofollow');
    a.setAttribute('target', '_blank');
  }
  return doc.body.innerHTML;
}
