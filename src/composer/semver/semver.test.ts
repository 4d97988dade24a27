import { describe, expect, it } from 'vitest';
import {
  InvalidConstraintError,
  InvalidVersionError,
  branchToVersion,
  compareVersions,
  isDevVersion,
  normalizeBranch,
  normalizeVersion,
  parseConstraint,
  parseConstraintCached,
  parseStability,
  phpVersionCompare,
  satisfies,
  sortVersions,
  tagToVersion,
} from './index.js';

describe('normalizeVersion', () => {
  it.each([
    ['1.0.0', '1.0.0.0'],
    ['1', '1.0.0.0'],
    ['1.2.3.4', '1.2.3.4'],
    ['v1.0.0', '1.0.0.0'],
    ['V2.1', '2.1.0.0'],
    ['  1.0.0\n', '1.0.0.0'],
    ['01.02.03', '01.02.03.0'],
    ['1.0.0-beta1', '1.0.0.0-beta1'],
    ['1.0.0-beta.2', '1.0.0.0-beta2'],
    ['1.0.0b3', '1.0.0.0-beta3'],
    ['1.0.0-alpha', '1.0.0.0-alpha'],
    ['1.0.0a1', '1.0.0.0-alpha1'],
    ['1.0.0-RC1', '1.0.0.0-RC1'],
    ['1.0.0-rc.1', '1.0.0.0-RC1'],
    ['1.0.0-patch1', '1.0.0.0-patch1'],
    ['1.0.0-pl2', '1.0.0.0-patch2'],
    ['1.0.0p3', '1.0.0.0-patch3'],
    ['1.0.0-stable', '1.0.0.0'],
    ['1.0.0-STABLE', '1.0.0.0-stable'],
    ['1.0.0-beta1-dev', '1.0.0.0-beta1-dev'],
    ['1.0.0+build.5', '1.0.0.0'],
    ['1.0.0-beta+exp.sha', '1.0.0.0-beta'],
    ['1.0-dev', '1.0.0.0-dev'],
    ['1.x-dev', '1.9999999.9999999.9999999-dev'],
    ['2.0.x-dev', '2.0.9999999.9999999-dev'],
    ['dev-main', 'dev-main'],
    ['DEV-Feature/X', 'dev-Feature/X'],
    ['master', 'dev-master'],
    ['trunk', 'dev-trunk'],
    ['2023-01-15', '2023.01.15'],
    ['20230115', '20230115'],
    ['1.0@dev', '1.0.0.0'],
    ['1.0 as 2.0', '1.0.0.0'],
  ])('%j → %s', (input, expected) => {
    expect(normalizeVersion(input)).toBe(expected);
  });

  it.each([
    ['foo', 'Invalid version string "foo"'],
    ['', 'Invalid version string ""'],
    ['1.0.0.0.0', 'Invalid version string "1.0.0.0.0"'],
    ['1.0-foo', 'Invalid version string "1.0-foo"'],
    ['feature-dev', 'Invalid version string "feature-dev"'],
    [
      'foo as 1.0',
      'Invalid version string "foo as 1.0" in "foo as 1.0", the alias source must be an exact version, if it is a branch name you should prefix it with dev-',
    ],
  ])('rejects %j', (input, message) => {
    expect(() => normalizeVersion(input)).toThrow(InvalidVersionError);
    expect(() => normalizeVersion(input)).toThrow(message);
  });

  it('uses the full version for alias hints', () => {
    expect(() => normalizeVersion('foo', '1.0 as foo')).toThrow(
      'Invalid version string "foo" in "1.0 as foo", the alias must be an exact version',
    );
  });
});

describe('normalizeBranch', () => {
  it.each([
    ['1.x', '1.9999999.9999999.9999999-dev'],
    ['v1.2', '1.2.9999999.9999999-dev'],
    ['2.*', '2.9999999.9999999.9999999-dev'],
    ['1.2.3.4', '1.2.3.4-dev'],
    ['main', 'dev-main'],
    ['feature/x', 'dev-feature/x'],
  ])('%s → %s', (name, expected) => {
    expect(normalizeBranch(name)).toBe(expected);
  });
});

describe('parseStability / isDevVersion', () => {
  it.each([
    ['1.0.0', 'stable'],
    ['1.0.0-stable', 'stable'],
    ['1.0.0-RC1', 'RC'],
    ['1.0.0-beta.2', 'beta'],
    ['1.0.0b1', 'beta'],
    ['1.0.0-alpha', 'alpha'],
    ['1.0.0-patch1', 'stable'],
    ['1.0.x-dev', 'dev'],
    ['dev-main', 'dev'],
    ['1.0.0-dev#abc', 'dev'],
  ] as const)('%s is %s', (version, stability) => {
    expect(parseStability(version)).toBe(stability);
  });

  it('recognises dev versions by their normalized form', () => {
    expect(isDevVersion('dev-main')).toBe(true);
    expect(isDevVersion('1.9999999.9999999.9999999-dev')).toBe(true);
    expect(isDevVersion('1.0.0.0-beta1')).toBe(false);
    expect(isDevVersion('1.0.0.0')).toBe(false);
  });
});

describe('parseConstraint', () => {
  it.each([
    ['1.0', '== 1.0.0.0'],
    ['>=1.0', '>= 1.0.0.0-dev'],
    ['<2.0', '< 2.0.0.0-dev'],
    ['<>1.0', '!= 1.0.0.0'],
    ['~1.2', '[>= 1.2.0.0-dev < 2.0.0.0-dev]'],
    ['~1.2.3', '[>= 1.2.3.0-dev < 1.3.0.0-dev]'],
    ['^1.2', '[>= 1.2.0.0-dev < 2.0.0.0-dev]'],
    ['^0.3', '[>= 0.3.0.0-dev < 0.4.0.0-dev]'],
    ['^0.0.3', '[>= 0.0.3.0-dev < 0.0.4.0-dev]'],
    ['1.2.*', '[>= 1.2.0.0-dev < 1.3.0.0-dev]'],
    ['0.*', '< 1.0.0.0-dev'],
    ['*', '*'],
    ['v*', '>= 0.0.0.0-dev'],
    ['1.0 - 2.0', '[>= 1.0.0.0-dev < 2.1.0.0-dev]'],
    ['1.0 - 2.0.0', '[>= 1.0.0.0-dev <= 2.0.0.0]'],
    ['>=1.0 <2.0', '[>= 1.0.0.0-dev < 2.0.0.0-dev]'],
    ['>=1.0,<2.0', '[>= 1.0.0.0-dev < 2.0.0.0-dev]'],
    ['1.0 || 2.0', '[== 1.0.0.0 || == 2.0.0.0]'],
    ['^1.0 || ^2.0', '[>= 1.0.0.0-dev < 3.0.0.0-dev]'],
    ['>=1.0@beta', '>= 1.0.0.0-beta'],
    ['1.0@dev', '== 1.0.0.0'],
    ['dev-main#abc123', '== dev-main'],
    ['foo-dev', '== dev-foo'],
    ['1.x-dev', '== 1.9999999.9999999.9999999-dev'],
  ])('%s → %s', (input, expected) => {
    expect(String(parseConstraint(input))).toBe(expected);
  });

  it.each([
    ['foo', 'Could not parse version constraint foo: Invalid version string "foo"'],
    ['>=foo', 'Could not parse version constraint >=foo: Invalid version string "foo"'],
    [
      '~>1.0',
      'Could not parse version constraint ~>1.0: Invalid operator "~>", you probably meant to use the "~" operator',
    ],
    ['1.0 ||', 'Could not parse version constraint : Invalid version string ""'],
  ])('rejects %j', (input, message) => {
    expect(() => parseConstraint(input)).toThrow(InvalidConstraintError);
    expect(() => parseConstraint(input)).toThrow(message);
  });

  it('caches parsed constraints, and keeps throwing for invalid ones', () => {
    const first = parseConstraintCached('^1.0 || ^2.0');
    expect(parseConstraintCached('^1.0 || ^2.0')).toBe(first);
    expect(() => parseConstraintCached('nope')).toThrow(InvalidConstraintError);
    expect(() => parseConstraintCached('nope')).toThrow(
      'Could not parse version constraint nope: Invalid version string "nope"',
    );
  });
});

describe('satisfies', () => {
  it.each([
    ['1.2.0-beta1', '^1.0', true],
    ['1.0.0', '^1.0', true],
    ['1.9.9', '^1.0', true],
    ['2.0.0', '^1.0', false],
    ['2.0.0-alpha1', '^1.0', false],
    ['0.3.9', '^0.3', true],
    ['0.4.0', '^0.3', false],
    ['dev-main', '*', true],
    ['dev-main', 'dev-main', true],
    ['dev-main', 'dev-feature', false],
    ['dev-main', '>=1.0', false],
    ['dev-main', '!=1.0', true],
    ['dev-main', 'v*', false],
    ['1.2.0', '~1.2', true],
    ['1.9.0', '~1.2', true],
    ['2.0.0', '~1.2', false],
    ['1.2.5', '~1.2.3', true],
    ['1.3.0', '~1.2.3', false],
    ['1.5.0', '1.0 - 2.0', true],
    ['2.0.9', '1.0 - 2.0', true],
    ['2.1.0', '1.0 - 2.0', false],
    ['2.0.0', '1.0 - 2.0.0', true],
    ['2.0.1', '1.0 - 2.0.0', false],
    ['1.0.0', '1.0 || 3.0', true],
    ['3.0.0', '1.0 || 3.0', true],
    ['2.0.0', '1.0 || 3.0', false],
    ['1.0.0', '!=1.0', false],
    ['1.0.1', '!=1.0', true],
    ['1.0.1', '<>1.0', true],
    ['1.5.0-beta1', '>=1.5@beta', true],
    ['1.5.0-alpha1', '>=1.5@beta', false],
    // Semver::satisfies ignores minimum-stability: >=1.5 means >= 1.5.0.0-dev.
    ['1.5.0-beta1', '>=1.5', true],
    ['1.4.9', '>=1.5', false],
    ['1.5.0-dev', '>=1.5', true],
    ['1.9.9', '<2.0', true],
    ['2.0.0-beta1', '<2.0', false],
    ['1.0.0-patch1', '>1.0', true],
    ['1.2.3', '1.2.*', true],
    ['1.3.0', '1.2.*', false],
    ['1.x-dev', '1.x-dev', true],
    ['1.x-dev', '^1.0', true],
    ['v1.2.3', '>=1.2.3 <1.3', true],
    ['1.2.3', '>=1.2.3,<1.2.3', false],
  ])('%s satisfies %s: %s', (version, constraint, expected) => {
    expect(satisfies(version, constraint)).toBe(expected);
  });

  it('throws on an invalid version or constraint, as Composer does', () => {
    expect(() => satisfies('foo', '*')).toThrow(InvalidVersionError);
    expect(() => satisfies('1.0', 'foo')).toThrow(InvalidConstraintError);
  });
});

describe('tagToVersion', () => {
  it.each([
    ['v1.1.0', { version: 'v1.1.0', normalized: '1.1.0.0' }],
    ['1.0.0-beta2', { version: '1.0.0-beta2', normalized: '1.0.0.0-beta2' }],
    ['release-2.0', { version: '2.0', normalized: '2.0.0.0' }],
    ['2023-01-15', { version: '2023-01-15', normalized: '2023.01.15' }],
    ['not-a-version', null],
    ['1.0-dev', null],
    ['dev-main', null],
    ['master', null],
  ])('%s → %j', (tag, expected) => {
    expect(tagToVersion(tag)).toEqual(expected);
  });
});

describe('branchToVersion', () => {
  it.each([
    ['1.x', { version: '1.x-dev', normalized: '1.9999999.9999999.9999999-dev' }],
    ['v2.x', { version: 'v2.x-dev', normalized: '2.9999999.9999999.9999999-dev' }],
    ['2.0', { version: '2.0.x-dev', normalized: '2.0.9999999.9999999-dev' }],
    ['main', { version: 'dev-main', normalized: 'dev-main' }],
    ['feature/x', { version: 'dev-feature/x', normalized: 'dev-feature/x' }],
    ['bad name', null],
    ['a|b', null],
  ])('%s → %j', (branch, expected) => {
    expect(branchToVersion(branch)).toEqual(expected);
  });
});

describe('ordering', () => {
  it('follows version_compare, with stability ordering dev < alpha < beta < RC < stable < patch', () => {
    const ordered = [
      '1.0.0.0-dev',
      '1.0.0.0-alpha1',
      '1.0.0.0-beta1',
      '1.0.0.0-beta2',
      '1.0.0.0-RC1',
      '1.0.0.0',
      '1.0.0.0-patch1',
      '1.0.1.0',
      '1.10.0.0',
    ];
    for (let i = 1; i < ordered.length; i++) {
      expect(phpVersionCompare(ordered[i - 1] ?? '', ordered[i] ?? '')).toBe(-1);
    }
  });

  it('sorts newest first, with dev- branches last', () => {
    const versions = ['1.0.0.0', 'dev-main', '2.0.0.0-beta1', '1.10.0.0', '2.0.0.0', 'dev-feature'];
    expect(sortVersions(versions)).toEqual([
      '2.0.0.0',
      '2.0.0.0-beta1',
      '1.10.0.0',
      '1.0.0.0',
      'dev-main',
      'dev-feature',
    ]);
    expect(sortVersions(versions, 'asc')[0]).toBe('dev-feature');
    expect(compareVersions('1.0.0.0', '1.0.0.0')).toBe(0);
  });

  it('orders plain numbered versions exactly as version_compare does', () => {
    // Leading zeros, numbers past PHP's LONG_MAX (clamped), fewer or more parts, other forms.
    const some = [
      '0',
      '1',
      '01',
      '001.0',
      '1.0',
      '1.0.0.0',
      '1.0.0.0.0',
      '1.00.0.0',
      '10.0.0.0',
      '9.0.0.0',
      '2.10.0.0',
      '2.9.99.0',
      '9223372036854775807.0',
      '9223372036854775808.0',
      '99999999999999999999.0',
      '00000009223372036854775807.1',
      '1.0.0.0-beta1',
      '1.0.0.0-p1',
      '1.0.0.0-dev',
      '1.0',
      '7.0.0.0',
    ];
    let seed = 7;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let i = 0; i < 300; i++) {
      const parts = Array.from({ length: 1 + next(5) }, () =>
        next(4) === 0 ? `0${next(30)}` : String(next(12)),
      );
      some.push(parts.join('.'));
    }
    for (const a of some) {
      for (const b of some)
        expect(compareVersions(a, b), `${a} <> ${b}`).toBe(phpVersionCompare(a, b));
    }
  });
});
