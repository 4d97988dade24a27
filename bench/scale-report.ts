import { fmt, item, verdict } from './report.js';
import type { Latencies } from './scale-measure.js';
import type { WrkResult } from './yardstick.js';
import { wrkLine } from './yardstick-run.js';

/** What bench/scale.ts measures on one database. */
export type Engine = 'sqlite' | 'postgres';

export interface ScaleFigures {
  engine: Engine;
  packages: number;
  seedSeconds: number;
  freshToken: Latencies;
  newAudience: Latencies;
  rotation: WrkResult;
  oneToken: WrkResult;
  rss: number | null;
  small: WrkResult;
  large: WrkResult;
  /** Medians over the rounds of the ratio within each round (wrk runs seconds apart). */
  rotationRatio: number;
  drift: number;
  /** The 100,000-package server's difference in each round, in round order. */
  driftRounds: number[];
  rounds: number;
  /** Pairs of new server processes the difference was measured on. */
  pairs: number;
}

export const SCALE_TARGETS = {
  firstAnswerMs: 2,
  rotationRatio: 0.5,
  rssBytes: 400 * 1024 * 1024,
  flatness: 0.1,
};

const latencyLine = (l: Latencies) =>
  `p50 ${fmt.ms(l.p50)}, p99 ${fmt.ms(l.p99)} over ${fmt.int(l.count)} tokens` +
  (l.errors ? `, ${fmt.int(l.errors)} not 200` : '');

export function reportScale(f: ScaleFigures): void {
  const t = SCALE_TARGETS;
  item(
    'first answer, new token of a served audience',
    `${latencyLine(f.freshToken)}: ${verdict(f.freshToken.p50 < t.firstAnswerMs)} (< ${t.firstAnswerMs} ms median)`,
  );
  item('first answer, token of a new audience', `${latencyLine(f.newAudience)} (computed)`);
  item('one token, 50 paths (wrk, 64 conn.)', wrkLine(f.oneToken));
  item('10,000 tokens in rotation', wrkLine(f.rotation));
  const ratio = f.rotationRatio;
  item(
    `rotation / one token (median of ${f.rounds} rounds)`,
    `${fmt.ratio(ratio)}: ${verdict(ratio >= t.rotationRatio)} (>= ${t.rotationRatio})`,
  );
  item(
    'server VmRSS after the rotation',
    f.rss === null
      ? 'n/a'
      : `${fmt.mb(f.rss)}: ${verdict(f.rss < t.rssBytes)} (< ${fmt.mb(t.rssBytes)})`,
  );
  item('cached p2, 100 packages', wrkLine(f.small));
  item(`cached p2, ${fmt.int(f.packages)} packages`, wrkLine(f.large));
  const drift = f.drift;
  item(
    `difference (median of ${f.driftRounds.length} rounds on ${f.pairs} process pairs)`,
    `${fmt.pct(drift)}: ${verdict(Math.abs(drift) <= t.flatness)} (within ${t.flatness * 100}%; ` +
      `rounds ${f.driftRounds.map(fmt.pct).join(', ')})`,
  );
}
