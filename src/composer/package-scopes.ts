const cache = new Map<string, RegExp>();

function globToRegExp(glob: string): RegExp {
  let re = cache.get(glob);
  if (!re) {
    const body = glob
      .toLowerCase()
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    re = new RegExp(`^${body}$`);
    cache.set(glob, re);
  }
  return re;
}

/** True when a token's package scopes (globs such as `acme/*`) allow the package; none = all. */
export function scopeAllows(packageScopes: readonly string[], name: string): boolean {
  return packageScopes.length === 0 || packageScopes.some((glob) => globToRegExp(glob).test(name));
}
