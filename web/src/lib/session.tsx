import type { License } from '../api/types';
import { sessionContext } from './session-context';

export type Level = 'owner' | 'admin' | 'viewer';

export interface Session {
  token: string;
  kind: 'root' | 'cma';
  level: Level;
  edition: License['edition'];
  features: readonly string[];
  signOut(): void;
}

export const [SessionContext, useSession] = sessionContext<Session>('useSession');

/** Whether the signed-in token may change things (viewers read only; the server agrees). */
export const canWrite = (s: Pick<Session, 'level'>): boolean => s.level !== 'viewer';
export const isOwner = (s: Pick<Session, 'level'>): boolean => s.level === 'owner';
export const hasFeature = (s: Pick<Session, 'features'>, f: string): boolean =>
  s.features.includes(f);
