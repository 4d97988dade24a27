import { useEffect } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { useSession } from '../lib/session';

const LINKS = [
  ['/packages', 'Packages'],
  ['/customers', 'Customers'],
  ['/collections', 'Collections'],
  ['/team', 'Team'],
  ['/statistics', 'Statistics'],
  ['/vulnerabilities', 'Vulnerabilities'],
  ['/audit', 'Audit log'],
  ['/tasks', 'Tasks'],
  ['/webhooks', 'Webhooks'],
  ['/events', 'Events'],
  ['/settings', 'Settings'],
] as const;

export function Layout() {
  const session = useSession();
  const location = useLocation();

  // After navigating, move focus to the new page's heading (as a full page load would).
  useEffect(() => {
    const heading = document.querySelector<HTMLElement>('main h1');
    if (heading && document.activeElement?.closest('nav')) heading.focus();
  }, [location.pathname]);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Packyard</span>
        <span className="who">
          {session.kind === 'root' ? 'Root token' : 'Team token'} · {session.level} ·{' '}
          {session.edition}
        </span>
        <button type="button" className="secondary" onClick={() => session.signOut()}>
          Sign out
        </button>
      </header>
      <nav className="mainnav" aria-label="Main">
        <ul>
          {LINKS.map(([to, label]) => (
            <li key={to}>
              <NavLink to={to}>{label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {session.level === 'viewer' && (
          <p className="notice">You are signed in with a viewer token: you can look, not change.</p>
        )}
        <Outlet />
      </main>
    </>
  );
}
