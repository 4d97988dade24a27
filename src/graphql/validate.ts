/** Drops undefined and null-for-optional keys GraphQL leaves in inputs, like a JSON body would. */
export function compact<T extends Record<string, unknown>>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;
}
