// The admin token lives in this tab's session storage only: never in a URL, gone with the tab.
const KEY = 'packyard.admin-token';

export function readToken(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function storeToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}

export function clearToken(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Storage disabled: nothing was stored either.
  }
}
