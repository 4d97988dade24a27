/** A setting is missing or malformed; the message names it. */
export class ConfigError extends Error {}
