/** What a customer pastes to install with a new token: auth.json and composer.json parts. */
export interface ComposerAuth {
  username: string;
  password: string;
  repository_url: string;
}

/** auth.json: HTTP Basic for the repository's host (user `token`, the token as password). */
export function authJsonSnippet(auth: ComposerAuth): string {
  const host = new URL(auth.repository_url).host;
  return JSON.stringify(
    { 'http-basic': { [host]: { username: auth.username, password: auth.password } } },
    null,
    4,
  );
}

/** The `repositories` entry of composer.json (http:// repositories also need secure-http off). */
export function composerJsonSnippet(auth: ComposerAuth): string {
  const doc: Record<string, unknown> = {
    repositories: [{ type: 'composer', url: auth.repository_url }],
  };
  if (auth.repository_url.startsWith('http://')) doc.config = { 'secure-http': false };
  return JSON.stringify(doc, null, 4);
}

/** "acme/a, acme/b*" as a list, blanks dropped. */
export function splitList(value: string): string[] {
  return value
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}
