import type { Deps } from '../../context.js';
import type { AdvisorySettings } from '../../config/advisories.js';
import { friendsOfPhpSource } from './sources/friendsofphp.js';
import { githubSource } from './sources/github.js';
import { osvSource } from './sources/osv.js';
import type { AdvisorySource } from './sources/types.js';

/** Builds one source from the settings, or null when its setting is off. */
export type SourceFactory = (settings: AdvisorySettings, deps: Deps) => AdvisorySource | null;

/** The sources the `advisories.import` task reads (docs/advisories.md), each optional. */
export const SOURCES: readonly SourceFactory[] = [friendsOfPhpSource, osvSource, githubSource];

/** The sources configured for this process; tests may pass their own to AdvisoryService. */
export function configuredSources(deps: Deps): AdvisorySource[] {
  const settings = deps.config.advisories;
  return SOURCES.map((make) => make(settings, deps)).filter((s): s is AdvisorySource => s !== null);
}
