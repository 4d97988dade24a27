import { CopyBlock, PageTitle } from '../components/ui';
import { authJsonSnippet, composerJsonSnippet } from '../lib/snippets';
import { usePortal } from './session';

/** Where a developer's own token goes in auth.json. */
export const TOKEN_PLACEHOLDER = '<your token>';

/** What to paste into a project to install from this registry. */
export function SetupPage() {
  const { info } = usePortal();
  const auth = {
    username: 'token',
    password: TOKEN_PLACEHOLDER,
    repository_url: info.repository_url,
  };
  const host = new URL(info.repository_url).host;
  return (
    <>
      <PageTitle>Setup</PageTitle>
      <p>
        Add this registry to your project's <code>composer.json</code>:
      </p>
      <CopyBlock label="composer.json" text={composerJsonSnippet(auth)} />
      <p>
        Then put your token into <code>auth.json</code> beside it (or run{' '}
        <code>
          composer config http-basic.{host} token {TOKEN_PLACEHOLDER}
        </code>
        ). Keep <code>auth.json</code> out of version control.
      </p>
      <CopyBlock label="auth.json" text={authJsonSnippet(auth)} />
      <p className="muted">
        Replace <code>{TOKEN_PLACEHOLDER}</code> with your token. Need one for a CI job? Create it
        on the Tokens page, or ask whoever manages your company&apos;s account.
      </p>
    </>
  );
}
