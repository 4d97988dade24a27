import cluster from 'node:cluster';

/**
 * The mark `packyard serve`'s primary leaves in its environment before forking, so its processes
 * know the primary relays between them (notices, metrics). A process forked by another primary
 * (pm2's cluster mode) has no such relay and must not wait for one. An internal handshake between
 * the primary and its children, not a setting: configuration lives in src/config/.
 */
const MARK = 'PACKYARD_SERVE_PRIMARY';

/** In the primary, before forking. */
export function markServeProcesses(): void {
  process.env[MARK] = '1';
}

/** True in a process forked by `packyard serve`'s primary. */
export const forkedByServe = (): boolean =>
  cluster.isWorker && typeof process.send === 'function' && process.env[MARK] === '1';
