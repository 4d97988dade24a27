/**
 * Differential test: thousands of generated versions and constraints are evaluated by
 * Composer's own PHP library (composer/semver, via Debian's `composer` package) in one
 * `php` process, and our port must agree on every single result.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  normalizeBranch,
  normalizeVersion,
  parseConstraint,
  parseStability,
  phpVersionCompare,
  satisfies,
} from './index.js';

const AUTOLOAD = '/usr/share/php/Composer/Semver/autoload.php';
const SEED = 0x5eed_c0de;

const PHP_SCRIPT = `<?php
require ${JSON.stringify(AUTOLOAD)};
use Composer\\Semver\\Semver;
use Composer\\Semver\\VersionParser;

$in = json_decode(file_get_contents('php://stdin'), true, 512, JSON_THROW_ON_ERROR);
$parser = new VersionParser();
$attempt = function (callable $fn) {
    try { return ['ok' => $fn()]; } catch (\\Exception $e) { return ['error' => $e->getMessage()]; }
};
$out = ['versions' => [], 'constraints' => [], 'pairs' => [], 'compares' => []];
foreach ($in['versions'] as $v) {
    $branch = $parser->normalizeBranch($v);
    $out['versions'][] = [
        'normalized' => $attempt(fn () => $parser->normalize($v)),
        'stability' => VersionParser::parseStability($v),
        'branch' => $branch,
        'branchValid' => !isset($attempt(fn () => $parser->parseConstraints($branch))['error']),
    ];
}
foreach ($in['constraints'] as $c) {
    $out['constraints'][] = $attempt(fn () => (string) $parser->parseConstraints($c));
}
foreach ($in['pairs'] as [$v, $c]) {
    $out['pairs'][] = $attempt(fn () => Semver::satisfies($v, $c));
}
foreach ($in['compares'] as [$a, $b]) {
    $out['compares'][] = version_compare($a, $b);
}
echo json_encode($out, JSON_THROW_ON_ERROR | JSON_INVALID_UTF8_SUBSTITUTE);
`;

type Attempt<T> = { ok: T } | { error: string };
interface PhpResults {
  versions: Array<{
    normalized: Attempt<string>;
    stability: string;
    branch: string;
    branchValid: boolean;
  }>;
  constraints: Array<Attempt<string>>;
  pairs: Array<Attempt<boolean>>;
  compares: number[];
}

function attempt<T>(fn: () => T): Attempt<T> {
  try {
    return { ok: fn() };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** mulberry32: small, fast, deterministic. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Gen {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = prng(seed);
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)];
    if (item === undefined) throw new Error('pick from empty list');
    return item;
  }
}

const STABILITIES = ['alpha', 'a', 'beta', 'b', 'RC', 'rc', 'patch', 'pl', 'p', 'stable'];
const ODD_STABILITIES = ['STABLE', 'Alpha', 'BETA', 'dev', 'DEV', 'pre', 'final'];
const BRANCHES = [
  'dev-main',
  'dev-master',
  'dev-feature/x',
  'DEV-Foo',
  'dev-1.x',
  'Dev-bar',
  'master',
  'trunk',
  'default',
  'main',
  'feature/login',
  '1.x-dev',
  '2.0.x-dev',
  '1.0-dev',
  'v2.x-dev',
  '1.*-dev',
  '1.X-dev',
  '3.x.dev',
  'foo-dev',
  'feature-dev',
  '1.0.x-dev',
  'dev-',
  '1.x',
  '2.0',
  'v1.2.x',
];
const ODD = [
  '',
  ' ',
  'foo',
  '1.0.0.0.0',
  '1..0',
  '1.0-',
  'v',
  '1.0-beta1-foo',
  '1.0-β',
  '1.0 2.0',
  'x',
  '*',
  '1.*',
  '1.0 as 2.0',
  'dev-main as 1.0.x-dev',
  'foo as 1.0',
  '1.0 as foo',
  '1.0@dev',
  '1.0@beta',
  'dev-main@dev',
  '1.0@stable',
  ' 1.0 ',
  '\t1.0\n',
  '1.0\n',
  '123456',
  '1234567.1',
  '99999.0',
  '99999999999999999999',
  '2023.01.15',
  '20230115',
  '2023-01-15',
  '2023-01-15-1230',
  '202301151230',
  '2023.1.1',
  '1.0+build.1',
  '1.0+',
  '1.0-beta+exp.sha.5114f85',
  'v1.0.0-RC.1',
  '1.0.0-alpha.beta',
  '\f1.0',
  '1.0\u00a0',
  '\u00a01.0',
  '1.0\v',
  'dev-a\nb',
  'a\nb-dev',
  '1.0-dev\n',
  '1.0.0-0.3.7',
  '1.0.0-x.7.z.92',
  '1.0.0+20130313144700',
  '1.2.3.4',
  '01.02.03',
  '0.0.0',
  'v0',
  '1.0-stable-dev',
  '1.0.0-pl2',
  '1.0#abc',
  'dev-main#abc',
  '1.0-dev#abc',
  '1-beta.2.3',
];

function num(g: Gen): string {
  const r = g.int(100);
  if (r < 70) return String(g.int(4));
  if (r < 90) return String(g.int(30));
  if (r < 97) return g.pick(['10', '99', '100', '2023', '0', '00', '01']);
  return g.pick(['123456', '99999', '9999999', '99999999999999999999', '9223372036854775807']);
}

function realisticVersion(g: Gen): string {
  const parts = [num(g)];
  const count = g.pick([1, 2, 3, 3, 3, 4]);
  while (parts.length < count) parts.push(num(g));
  let v = (g.chance(0.2) ? g.pick(['v', 'v', 'V']) : '') + parts.join('.');
  if (g.chance(0.35)) {
    const stability = g.chance(0.9) ? g.pick(STABILITIES) : g.pick(ODD_STABILITIES);
    v += g.pick(['-', '-', '.', '_', '']) + stability;
    if (g.chance(0.6)) v += g.pick(['', '.', '-']) + String(g.int(12));
  }
  if (g.chance(0.08)) v += g.pick(['-dev', '.dev', 'dev', '-DEV']);
  if (g.chance(0.06)) v += g.pick(['+build.1', '+exp', '+20130313']);
  return v;
}

function soup(g: Gen, alphabet: string, maxLength: number): string {
  let s = '';
  const length = 1 + g.int(maxLength);
  for (let i = 0; i < length; i++) s += alphabet.charAt(g.int(alphabet.length));
  return s;
}

function version(g: Gen): string {
  const r = g.int(100);
  if (r < 62) return realisticVersion(g);
  if (r < 72) return g.pick(BRANCHES);
  if (r < 84) return g.pick(ODD);
  if (r < 90) return realisticVersion(g) + g.pick(['@dev', '@beta', '@stable', '@RC', ' as 1.0']);
  return soup(g, '0123456789.-_+vxX*@abdevRCpl #', 10);
}

const OPERATORS = ['', '=', '==', '!=', '<>', '<', '<=', '>', '>=', '~', '^', '~>'];

function atom(g: Gen): string {
  const r = g.int(100);
  if (r < 55) {
    const op = g.pick(OPERATORS);
    return op + (op && g.chance(0.2) ? ' ' : '') + realisticVersion(g);
  }
  if (r < 68) {
    return g.pick([
      '*',
      'x',
      'X',
      'v*',
      '*.*',
      '1.*',
      '1.2.*',
      '1.x',
      'v1.2.x',
      '1.x.x',
      '0.*',
      '0.x',
      '2.*.*',
      '0.0.*',
      '00.x',
      '1.2.3.*',
      'V1.*',
      '1.X',
      '*@dev',
      '@dev',
      '@stable',
      '1.*@beta',
    ]);
  }
  if (r < 76) return `${realisticVersion(g)} - ${realisticVersion(g)}`;
  if (r < 84) {
    return g.pick([
      'dev-main',
      'dev-main#abc123',
      '1.x-dev#abc',
      'foo-dev',
      'dev-feature/x',
      '1.0.x-dev',
      '2.x-dev',
      '~2.x-dev',
      '^1.2.x-dev',
      'dev-main as 1.0.x-dev',
      '1.0 as 2.0',
      '>= dev-main',
      '!=dev-main',
      '<dev-main',
      'master',
      'DEV-Foo',
      '~1.0.x-dev',
      'dev-1.x',
      '>=1.0-dev',
      '<1.0-RC1',
    ]);
  }
  if (r < 92) {
    const op = g.pick(['', '>=', '<', '<=', '>', '!=', '~', '^']);
    return `${op}${realisticVersion(g)}${g.pick(['@dev', '@beta', '@alpha', '@RC', '@stable', '@DEV'])}`;
  }
  return g.pick([
    'foo',
    '~>1.0',
    '^',
    '>=',
    '1.0 -',
    '- 1.0',
    '>= 1.0 <',
    '1.0 - 2.0 - 3.0',
    '~',
    '^v',
    '=>1.0',
    '>>1.0',
    '1.0,',
    ',1.0',
    '1.0 ,, 2.0',
    '||',
    '1.0 ||',
    '| 1.0',
    '1.0 as',
    'as 1.0',
    '1.0 1.0',
  ]);
}

function constraint(g: Gen): string {
  if (g.chance(0.07)) return soup(g, '0123456789.-|,~^<>=!*xv@ abdevRC', 14);
  const orCount = g.pick([1, 1, 1, 2, 2, 3]);
  const groups: string[] = [];
  for (let i = 0; i < orCount; i++) {
    const andCount = g.pick([1, 1, 2, 2, 3]);
    const atoms: string[] = [];
    for (let j = 0; j < andCount; j++) atoms.push(atom(g));
    groups.push(atoms.join(g.pick([' ', ',', ', ', '  ', ' , '])));
  }
  return groups.join(g.pick([' || ', '||', '|', ' | ']));
}

/** A version close to one mentioned in the constraint, to exercise its bounds. */
function nearBoundary(g: Gen, c: string): string {
  if (g.chance(0.4)) {
    // The exact bounds our parser derived (PHP still judges the outcome).
    const parsed = attempt(() => String(parseConstraint(c)));
    const bounds = 'ok' in parsed ? [...parsed.ok.matchAll(/(?:[=!<>]=|<|>) ([^ \]]+)/g)] : [];
    const bound = bounds.length > 0 ? g.pick(bounds)[1] : undefined;
    if (bound !== undefined) return bound;
  }
  const mentioned = c.match(/v?\d+(?:\.\d+)*(?:-?[a-zA-Z]+\d*)?/g) ?? [];
  if (mentioned.length === 0) return realisticVersion(g);
  const base = g.pick(mentioned);
  switch (g.int(8)) {
    case 0:
    case 7:
      return base;
    case 1:
      return `${base}-${g.pick(['dev', 'dev', 'alpha1', 'beta2', 'RC1', 'patch1'])}`;
    case 2:
      return `${base}.${g.pick(['0', '1', '9999999'])}`;
    case 3:
      return base.replace(/\d+(?=\D*$)/, (d) => String(Math.max(0, Number(d) + g.pick([-1, 1]))));
    case 4:
      return `dev-${base}`;
    case 5:
      return `${base.replace(/[-a-zA-Z].*$/, '')}.x-dev`;
    default:
      return g.pick(['dev-main', 'dev-master', '9999999-dev', '0.0.0', '0.0.0-dev']);
  }
}

/** Hand-picked corners the generator would rarely hit. */
const CORNER_CONSTRAINTS = [
  '1.* || 2.*',
  '^1.0 || ^2.0 || ^3.0',
  '~1.0 || ~2.0',
  '1.0.* || 1.1.* || 1.3.*',
  '>=1.0 <2.0 || >=2.0 <3.0',
  '>=1.0 <dev-foo || >=dev-foo <3.0',
  '>=1.0 <=2.0 || >=2.0 <3.0',
  '^0.1 || ^0.2',
  '1.* | 2.* | 3.*',
  '~99999999999999999999',
  '^99999999999999999999.1',
  '^9223372036854775807.1',
  '~9223372036854775806.1',
  '1.0 - 99999999999999999999',
  '>=1.0@STABLE',
  '<2.0@Dev',
  '>=1.0@Stable',
  '@STABLE',
  '1.0@RC',
  '>=\u00a01.0',
  '1.0 ||\u00a02.0',
  '1.0\u00a0as 2.0',
  '1.0\u00a0@dev',
  '\u00a0*',
  '>=1.0,\u00a0<2.0',
  '~1.0.0.0',
  '~1.0.0.0.0',
  '^0',
  '^0.0',
  '^0.0.0',
  '^0.0.0.1',
  '~0',
  '~1',
  'v1.0 - v2',
  '1.0-beta - 2.0-RC1',
  '1 - 2.0.0',
  '1.0 - 2.0.x-dev',
  '1.x-dev - 2',
  '01.x',
  '00.x',
  '0.x.x',
  'V1.0',
  '>=01.002',
  '~123456.0',
];
const CORNER_COMPARES: Array<[string, string]> = [
  ['1..2', '1.2'],
  ['1.2', '1..2'],
  ['99999999999999999999', '99999999999999999998'],
  ['9223372036854775808', '9223372036854775807'],
  ['9223372036854775806', '9223372036854775807'],
  ['1.0.0', '1.0.0.0'],
  ['1.0-dev', '1.0'],
  ['1.0-a', '1.0-alpha'],
  ['1.0-pl1', '1.0-p1'],
  ['1.0#1', '1.0'],
  ['#', '1'],
  ['1', '#'],
  ['', ''],
  ['', '1'],
  ['1.0-', '1.0'],
  ['1.0+', '1.0'],
  ['1.0-beta', '1.0-Beta'],
  ['1.0-foo', '1.0-dev'],
  ['1.0.0.0-RC1', '1.0.0.0-rc1'],
  ['1_0', '1.0'],
  ['1.0rc1', '1.0-RC1'],
  ['a', 'b'],
  ['0010', '10'],
  ['1.0.0.0-patch1', '1.0.0.0'],
];

interface Inputs {
  versions: string[];
  constraints: string[];
  pairs: Array<[string, string]>;
  compares: Array<[string, string]>;
}

function generate(): Inputs {
  const g = new Gen(SEED);
  const versions = Array.from({ length: 1500 }, () => version(g));
  const constraints = [...CORNER_CONSTRAINTS, ...Array.from({ length: 1500 }, () => constraint(g))];
  const pairs: Array<[string, string]> = Array.from({ length: 8000 }, () => {
    const c = g.pick(constraints);
    return [g.chance(0.35) ? g.pick(versions) : nearBoundary(g, c), c];
  });
  const normalized = versions.flatMap((v) => {
    const r = attempt(() => normalizeVersion(v));
    return 'ok' in r ? [r.ok] : [];
  });
  const compareInputs = [
    ...normalized,
    '1.0.0.0-Alpha',
    '1.0#2',
    '#1',
    '1.',
    '.1',
    '1-',
    '1..2',
    'pl',
  ];
  const compares: Array<[string, string]> = [
    ...CORNER_COMPARES,
    ...Array.from({ length: 3000 }, (): [string, string] => [
      g.chance(0.1) ? soup(g, '0123456789.-_+#abdevRCplx', 8) : g.pick(compareInputs),
      g.pick(compareInputs),
    ]),
  ];
  return { versions, constraints, pairs, compares };
}

function runPhp(inputs: Inputs): PhpResults {
  const dir = mkdtempSync(join(tmpdir(), 'packyard-semver-'));
  try {
    const script = join(dir, 'semver.php');
    writeFileSync(script, PHP_SCRIPT);
    const run = spawnSync('php', [script], {
      input: JSON.stringify(inputs),
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    if (run.error) {
      throw new Error(
        `Cannot run php (${run.error.message}). The semver differential test needs Composer's ` +
          `PHP library: install php-cli composer (e.g. apt-get install php-cli composer).`,
      );
    }
    if (run.status !== 0) throw new Error(`php failed (${run.status}): ${run.stderr}${run.stdout}`);
    return JSON.parse(run.stdout) as PhpResults;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Collects every disagreement; fails showing the first 20. */
function expectNoMismatches(kind: string, mismatches: string[], checked: number): void {
  const shown = mismatches.slice(0, 20).join('\n');
  expect(mismatches, `${mismatches.length}/${checked} ${kind} mismatches:\n${shown}`).toEqual([]);
}

const show = (value: unknown): string => JSON.stringify(value);

let state: { inputs: Inputs; php: PhpResults } | Error | undefined;

/** Runs PHP once; every test rethrows a setup failure so none passes or skips silently. */
function load(): { inputs: Inputs; php: PhpResults } {
  if (state === undefined) {
    try {
      if (!existsSync(AUTOLOAD)) {
        throw new Error(
          `${AUTOLOAD} not found: install php-cli composer (e.g. apt-get install php-cli composer) ` +
            'so the semver differential test can compare against Composer.',
        );
      }
      const inputs = generate();
      state = { inputs, php: runPhp(inputs) };
    } catch (e) {
      state = e instanceof Error ? e : new Error(String(e));
    }
  }
  if (state instanceof Error) throw state;
  return state;
}

describe('differential against composer/semver (PHP)', () => {
  beforeAll(() => {
    try {
      load();
    } catch {
      // reported by each test below
    }
  }, 20_000);

  it('covers thousands of items', () => {
    const { inputs, php } = load();
    expect(
      inputs.versions.length + inputs.constraints.length + inputs.pairs.length,
    ).toBeGreaterThan(3000);
    expect(php.pairs).toHaveLength(inputs.pairs.length);
    // Sanity: the generator must produce a real mix of outcomes.
    const outcomes = php.pairs.map((p) => ('ok' in p ? String(p.ok) : 'error'));
    for (const outcome of ['true', 'false', 'error']) {
      expect(outcomes.filter((o) => o === outcome).length).toBeGreaterThan(300);
    }
  });

  it('normalizes versions identically (including error messages)', () => {
    const { inputs, php } = load();
    const mismatches: string[] = [];
    inputs.versions.forEach((v, i) => {
      const expected = php.versions[i]?.normalized;
      const actual = attempt(() => normalizeVersion(v));
      if (show(actual) !== show(expected)) {
        mismatches.push(`normalize(${show(v)}): php ${show(expected)} ts ${show(actual)}`);
      }
    });
    expectNoMismatches('normalization', mismatches, inputs.versions.length);
  });

  it('parses stability and branch names identically', () => {
    const { inputs, php } = load();
    const mismatches: string[] = [];
    inputs.versions.forEach((v, i) => {
      const expected = php.versions[i];
      const stability = parseStability(v);
      const branch = normalizeBranch(v);
      const branchValid = !('error' in attempt(() => parseConstraint(branch)));
      const actual = { stability, branch, branchValid };
      const wanted = {
        stability: expected?.stability,
        branch: expected?.branch,
        branchValid: expected?.branchValid,
      };
      if (show(actual) !== show(wanted)) {
        mismatches.push(`${show(v)}: php ${show(wanted)} ts ${show(actual)}`);
      }
    });
    expectNoMismatches('stability/branch', mismatches, inputs.versions.length);
  });

  it('parses constraints identically (structure or error message)', () => {
    const { inputs, php } = load();
    const mismatches: string[] = [];
    inputs.constraints.forEach((c, i) => {
      const expected = php.constraints[i];
      const actual = attempt(() => String(parseConstraint(c)));
      if (show(actual) !== show(expected)) {
        mismatches.push(`parse(${show(c)}): php ${show(expected)} ts ${show(actual)}`);
      }
    });
    expectNoMismatches('constraint', mismatches, inputs.constraints.length);
  });

  it('agrees with Semver::satisfies on every pair', () => {
    const { inputs, php } = load();
    const mismatches: string[] = [];
    inputs.pairs.forEach(([v, c], i) => {
      const expected = php.pairs[i];
      const actual = attempt(() => satisfies(v, c));
      if (show(actual) !== show(expected)) {
        mismatches.push(
          `satisfies(${show(v)}, ${show(c)}): php ${show(expected)} ts ${show(actual)}`,
        );
      }
    });
    expectNoMismatches('satisfies', mismatches, inputs.pairs.length);
  });

  it('agrees with version_compare', () => {
    const { inputs, php } = load();
    const mismatches: string[] = [];
    inputs.compares.forEach(([a, b], i) => {
      const expected = php.compares[i];
      const actual = phpVersionCompare(a, b);
      if (actual !== expected) {
        mismatches.push(`version_compare(${show(a)}, ${show(b)}): php ${expected} ts ${actual}`);
      }
    });
    expectNoMismatches('version_compare', mismatches, inputs.compares.length);
  });
});
