import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { hasFeature } from './session';
import type { Session } from './session';

const SUBSCRIPTION = `subscription PackageSynced($name: String) {
  packageSynced(name: $name) { package status versionsAdded versionsRemoved error syncedAt }
}`;

export interface SyncEvent {
  package: string;
  status: string;
  versionsAdded: string[];
  versionsRemoved: string[];
  error: string | null;
  syncedAt: string;
}

/** The same origin's GraphQL endpoint as a WebSocket URL. */
export function graphqlWsUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/graphql`;
}

/** How often to re-read a package while it syncs: rarely with a live subscription, else often. */
export function syncPollInterval(live: boolean, syncing: boolean): number | false {
  if (!syncing) return false;
  return live ? 5000 : 1000;
}

/**
 * Live sync progress of one package: where the edition has GraphQL, a `packageSynced`
 * subscription over graphql-ws refreshes the package the moment a sync ends; elsewhere the
 * package is polled while it syncs (see syncPollInterval). Answers whether it is live and the
 * last event heard.
 */
export function usePackageSyncEvents(name: string, session: Session) {
  const queryClient = useQueryClient();
  const live = hasFeature(session, 'graphql');
  const [last, setLast] = useState<SyncEvent | null>(null);

  useEffect(() => {
    if (!live) return;
    let cancelled = false;
    let dispose = () => {};
    const refresh = () => {
      void queryClient.invalidateQueries({ queryKey: ['package', name] });
      void queryClient.invalidateQueries({ queryKey: ['packages'] });
    };
    void import('graphql-ws').then(({ createClient }) => {
      if (cancelled) return;
      const client = createClient({
        url: graphqlWsUrl(window.location),
        connectionParams: { Authorization: `Bearer ${session.token}` },
        lazy: false,
        retryAttempts: 5,
        // A sync that ended before the socket was up sent its event to no one: read once more.
        on: { connected: refresh },
      });
      const stop = client.subscribe<{ packageSynced: SyncEvent }>(
        { query: SUBSCRIPTION, variables: { name } },
        {
          next: (msg) => {
            if (msg.data) setLast(msg.data.packageSynced);
            refresh();
          },
          error: () => {},
          complete: () => {},
        },
      );
      dispose = () => {
        stop();
        void client.dispose();
      };
    });
    return () => {
      cancelled = true;
      dispose();
    };
  }, [live, name, session.token, queryClient]);

  return { live, last };
}
