/** A token kept in this tab's session storage only: never in a URL, gone with the tab. */
export interface TokenStore {
  read(): string | null;
  store(token: string): void;
  clear(): void;
}

/** The session-storage slot `key` (the admin UI and the portal each have their own). */
export function createTokenStore(key: string): TokenStore {
  return {
    read() {
      try {
        return sessionStorage.getItem(key);
      } catch {
        return null;
      }
    },
    store(token) {
      sessionStorage.setItem(key, token);
    },
    clear() {
      try {
        sessionStorage.removeItem(key);
      } catch {
        // Storage disabled: nothing was stored either.
      }
    },
  };
}

/** The admin UI's token (an admin or team token). */
export const adminToken = createTokenStore('packyard.admin-token');
