import { sessionContext } from '../lib/session-context';
import type { Me, PortalInfo } from './client';

/** The signed-in customer token, what it is, and the registry's portal settings. */
export interface PortalSession {
  me: Me;
  info: PortalInfo;
  signOut(): void;
}

export const [PortalContext, usePortal] = sessionContext<PortalSession>('usePortal');

/** Customer-admin tokens manage their customer's tokens; the server agrees. */
export const isCustomerAdmin = (s: PortalSession): boolean => s.me.token.scope === 'admin';

/** The vendor's title, or a plain default. */
export const titleOf = (info: PortalInfo | undefined): string => info?.title ?? 'Packages';
