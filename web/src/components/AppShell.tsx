import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';

/**
 * The signed-in frame of both web apps: a skip link, the top bar (brand, who is signed in,
 * `Sign out`), the main navigation and the page. Moves focus to the new page's heading after a
 * navigation, as a full page load would.
 */
export function AppShell({
  brand,
  who,
  onSignOut,
  links,
  navLabel,
  topbarClass,
  notice,
}: {
  brand: ReactNode;
  who: ReactNode;
  onSignOut: () => void;
  links: readonly (readonly [to: string, label: string])[];
  navLabel: string;
  topbarClass?: string;
  notice?: ReactNode;
}) {
  const location = useLocation();
  useEffect(() => {
    const heading = document.querySelector<HTMLElement>('main h1');
    if (heading && document.activeElement?.closest('nav')) heading.focus();
  }, [location.pathname]);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className={topbarClass ? `topbar ${topbarClass}` : 'topbar'}>
        <span className="brand">{brand}</span>
        <span className="who">{who}</span>
        <button type="button" className="secondary" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <nav className="mainnav" aria-label={navLabel}>
        <ul>
          {links.map(([to, label]) => (
            <li key={to}>
              <NavLink to={to} end={to === '/'}>
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {notice}
        <Outlet />
      </main>
    </>
  );
}
