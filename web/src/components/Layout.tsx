import { AppShell } from './AppShell';
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
  return (
    <AppShell
      brand="Packyard"
      who={
        <>
          {session.kind === 'root' ? 'Root token' : 'Team token'} · {session.level} ·{' '}
          {session.edition}
        </>
      }
      onSignOut={() => session.signOut()}
      links={LINKS}
      navLabel="Main"
      notice={
        session.level === 'viewer' && (
          <p className="notice">You are signed in with a viewer token: you can look, not change.</p>
        )
      }
    />
  );
}
