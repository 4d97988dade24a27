import type { LoadResult } from './load.js';
import { fmt, heading, table, verdict } from './report.js';
import { PROXY_TARGETS } from './proxy.js';
import type { ProxyBench } from './proxy.js';
import type { Yardstick } from './yardstick-run.js';
import type { Settings } from './settings.js';
import type { SyncRun } from './sync.js';
import { SCALE_TARGETS } from './scale-report.js';
import type { ScaleFigures } from './scale-report.js';
import type { MixedResult } from './mixed.js';

/** Section (j) of one database. */
function scaleRows(f: ScaleFigures): string[][] {
  const t = SCALE_TARGETS;
  const ratio = f.rotationRatio;
  const drift = f.drift;
  return [
    [
      `(j) ${f.engine}: first answer, new token, ${fmt.int(f.packages)} pkgs/customers`,
      `p50 ${fmt.ms(f.freshToken.p50)}`,
      `< ${t.firstAnswerMs} ms`,
      verdict(f.freshToken.p50 < t.firstAnswerMs),
    ],
    [`(j) ${f.engine}: first answer, new audience`, `p50 ${fmt.ms(f.newAudience.p50)}`, '', ''],
    [
      `(j) ${f.engine}: 10,000 tokens / one token`,
      fmt.ratio(ratio),
      `>= ${t.rotationRatio}`,
      verdict(ratio >= t.rotationRatio),
    ],
    [
      `(j) ${f.engine}: VmRSS after the rotation`,
      f.rss === null ? 'n/a' : fmt.mb(f.rss),
      `< ${fmt.mb(t.rssBytes)}`,
      verdict(f.rss === null ? null : f.rss < t.rssBytes),
    ],
    [
      `(j) ${f.engine}: p2 req/s ${fmt.int(f.packages)} vs 100 pkgs`,
      fmt.pct(drift),
      `within ${t.flatness * 100}%`,
      verdict(Math.abs(drift) <= t.flatness),
    ],
  ];
}

export const TARGETS = {
  /** (a) our p2 requests/second over the floor's. */
  floorRatio: 0.6,
  /** (b) largest relative difference between the small and the large catalogue. */
  catalogueDrift: 0.15,
  /** (c) Composer's VCS driver's median over Packyard's full sync's, on the same repository. */
  syncSpeedup: 20,
  /** (c) median ms from a signed push of one new tag to the p2 document listing it (1,000 tags). */
  pushMs: 150,
  /** (d) resident memory after the large-catalogue load. */
  rssBytes: 300 * 1024 * 1024,
  /** (e) Packyard at WEB_CONCURRENCY over nginx serving the same bytes (issue 15). */
  nginxRatio: 0.9,
  p99Ms: 10,
  processRssBytes: 400 * 1024 * 1024,
};

/** The closing table: every figure next to its target. */
export function summary(
  s: Settings,
  results: {
    small: LoadResult;
    large: LoadResult;
    floor: LoadResult;
    fastify: LoadResult;
    sync: SyncRun;
    rss: number | null;
    proxy: ProxyBench;
    yardstick: Yardstick;
    scale: ScaleFigures[];
    mixed: MixedResult;
  },
): void {
  const { small, large, floor, fastify, sync, rss, proxy, yardstick: ys, scale, mixed } = results;
  const cachedRatio = proxy.publicLoad.rps / proxy.privateLoad.rps;
  const coldRatio = proxy.proxied / proxy.direct;
  const nginxRatio = ys.packyard.rps / ys.nginx.rps;
  const ratio = small.rps / floor.rps;
  const drift = (large.rps - small.rps) / small.rps;
  const pkgs = (n: number) => `${fmt.int(n)} pkgs`;
  heading('Summary');
  console.log(
    table(
      ['measure', 'value', 'target', 'result'],
      [
        [`(a) p2 req/s, ${pkgs(s.smallCatalogue)}`, fmt.int(small.rps), '', ''],
        ['(a) p2 p99 latency', fmt.ms(small.p99), '', ''],
        ['(a) floor req/s (node:http, same bytes)', fmt.int(floor.rps), '', ''],
        ['(a) floor p99 latency', fmt.ms(floor.p99), '', ''],
        [
          '(a) ratio p2 / floor',
          fmt.ratio(ratio),
          `>= ${TARGETS.floorRatio}`,
          verdict(ratio >= TARGETS.floorRatio),
        ],
        [
          '(a) for reference: Fastify route alone / floor',
          fmt.ratio(fastify.rps / floor.rps),
          '',
          '',
        ],
        [`(b) p2 req/s, ${pkgs(s.largeCatalogue)}`, fmt.int(large.rps), '', ''],
        ['(b) p2 p99 latency', fmt.ms(large.p99), '', ''],
        [
          `(b) req/s ${pkgs(s.largeCatalogue)} vs ${pkgs(s.smallCatalogue)}`,
          fmt.pct(drift),
          `within ${TARGETS.catalogueDrift * 100}%`,
          verdict(Math.abs(drift) <= TARGETS.catalogueDrift),
        ],
        [`(c) full sync of ${fmt.int(s.tags)} tags (median)`, fmt.ms(sync.packyard.median), '', ''],
        [`(c) Composer's VCS driver, same repository`, fmt.ms(sync.composer.median), '', ''],
        [
          '(c) ratio Composer / Packyard',
          `${fmt.ratio(sync.speedup)}x`,
          `>= ${TARGETS.syncSpeedup}x`,
          verdict(sync.speedup >= TARGETS.syncSpeedup),
        ],
        [
          '(c) the same on a server that synced before (median, ratio)',
          `${fmt.ms(sync.running.median)}, ${fmt.ratio(sync.runningSpeedup)}x`,
          '',
          '',
        ],
        ...sync.push.map((p) => [
          `(c) ${fmt.int(p.tags)} tags: signed push -> p2 lists the tag (median)`,
          fmt.ms(p.webhook.median),
          p.tags === s.tags ? `< ${TARGETS.pushMs} ms` : '',
          p.tags === s.tags ? verdict(p.webhook.median < TARGETS.pushMs) : '',
        ]),
        [
          '(c) versions created',
          `${fmt.int(sync.versions)} (${fmt.int(sync.fromTags)} from tags)`,
          `${fmt.int(s.tags)} from tags`,
          verdict(sync.fromTags === s.tags),
        ],
        [
          `(d) server VmRSS after (b)`,
          rss === null ? 'n/a' : fmt.mb(rss),
          `< ${fmt.mb(TARGETS.rssBytes)}`,
          verdict(rss === null ? null : rss < TARGETS.rssBytes),
        ],
        ['(e) private p2 req/s (same server)', fmt.int(proxy.privateLoad.rps), '', ''],
        ['(e) proxied p2 req/s, from the cache', fmt.int(proxy.publicLoad.rps), '', ''],
        [
          '(e) ratio proxied / private',
          fmt.ratio(cachedRatio),
          `>= ${PROXY_TARGETS.cachedRatio}`,
          verdict(cachedRatio >= PROXY_TARGETS.cachedRatio),
        ],
        ['(f) cold composer update, direct to upstream', fmt.s(proxy.direct), '', ''],
        ['(f) cold composer update, through Packyard', fmt.s(proxy.proxied), '', ''],
        [
          '(f) ratio through Packyard / direct',
          fmt.ratio(coldRatio),
          `<= ${PROXY_TARGETS.coldUpdateRatio}`,
          verdict(coldRatio <= PROXY_TARGETS.coldUpdateRatio),
        ],
        ['(g) nginx req/s (wrk, static, Basic auth)', fmt.int(ys.nginx.rps), '', ''],
        ['(g) nginx p99 latency', fmt.ms(ys.nginx.p99), '', ''],
        ['(g) floor req/s (wrk, node:http, 1 process)', fmt.int(ys.floor.rps), '', ''],
        [`(g) Packyard req/s, WEB_CONCURRENCY=${ys.processes}`, fmt.int(ys.packyard.rps), '', ''],
        [
          '(g) ratio Packyard / nginx',
          fmt.ratio(nginxRatio),
          `>= ${TARGETS.nginxRatio}`,
          verdict(nginxRatio >= TARGETS.nginxRatio),
        ],
        [
          '(g) Packyard p99 latency',
          fmt.ms(ys.packyard.p99),
          `< ${TARGETS.p99Ms} ms`,
          verdict(ys.packyard.p99 < TARGETS.p99Ms),
        ],
        [
          '(g) largest Packyard process VmRSS',
          fmt.mb(ys.rss.largest),
          `< ${fmt.mb(TARGETS.processRssBytes)}`,
          verdict(ys.rss.largest < TARGETS.processRssBytes),
        ],
        ...scale.flatMap(scaleRows),
        [
          `(k) ${mixed.seconds} s at ${fmt.int(mixed.rate)} req/s mixed, 2 nodes: errors`,
          `${fmt.int(mixed.overall.errors)} of ${fmt.int(mixed.overall.sent)}`,
          '0 at 1,000 req/s for 60 s',
          verdict(mixed.met),
        ],
        [
          '(k) mixed p50 / p99',
          `${fmt.ms(mixed.overall.p50)} / ${fmt.ms(mixed.overall.p99)}`,
          '',
          '',
        ],
      ],
    ),
  );
  if (ratio < TARGETS.floorRatio && !s.profile) {
    console.log('\nThe p2 ratio is below target: `BENCH_CPU_PROF=1 npm run bench` profiles it.');
  }
}
