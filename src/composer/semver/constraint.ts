/**
 * Composer's constraint types, ported from composer/semver's Constraint and MultiConstraint (3.3).
 * `toString()` gives Composer's string form.
 */
import { phpVersionCompare } from './compare.js';

export class InvalidConstraintError extends Error {
  override name = 'InvalidConstraintError';
}

export type Operator = '==' | '!=' | '<' | '<=' | '>' | '>=';

export interface Constraint {
  /** Whether a normalized version (as normalizeVersion returns it) satisfies this. */
  matches(normalizedVersion: string): boolean;
  toString(): string;
}

const isBranch = (v: string): boolean => v.startsWith('dev-');

/** One `operator version` pair, e.g. `>= 1.0.0.0-dev`. */
export class SingleConstraint implements Constraint {
  constructor(
    readonly operator: Operator,
    readonly version: string,
  ) {}

  // Constraint::matchSpecific against an `== version` provider, without branch comparison.
  matches(normalizedVersion: string): boolean {
    const v = normalizedVersion;
    const c = this.version;
    const branch = isBranch(v) || isBranch(c);
    switch (this.operator) {
      case '!=':
        return branch ? v !== c : phpVersionCompare(v, c) !== 0;
      case '==':
        if (isBranch(v) && isBranch(c)) return v === c;
        return !branch && phpVersionCompare(v, c) === 0;
      case '<':
        return !branch && phpVersionCompare(v, c) < 0;
      case '<=':
        return !branch && phpVersionCompare(v, c) <= 0;
      case '>':
        return !branch && phpVersionCompare(v, c) > 0;
      case '>=':
        return !branch && phpVersionCompare(v, c) >= 0;
    }
  }

  toString(): string {
    return `${this.operator} ${this.version}`;
  }
}

export class MultiConstraint implements Constraint {
  constructor(
    readonly constraints: readonly Constraint[],
    readonly conjunctive: boolean,
  ) {}

  matches(normalizedVersion: string): boolean {
    return this.conjunctive
      ? this.constraints.every((c) => c.matches(normalizedVersion))
      : this.constraints.some((c) => c.matches(normalizedVersion));
  }

  toString(): string {
    return `[${this.constraints.join(this.conjunctive ? ' ' : ' || ')}]`;
  }
}

export class MatchAllConstraint implements Constraint {
  matches(): boolean {
    return true;
  }

  toString(): string {
    return '*';
  }
}

/** `[>= a < b] || [>= b < c]` collapses to `[>= a < c]`, as MultiConstraint::create does. */
export function createDisjunction(groups: Constraint[]): Constraint {
  const [first, ...rest] = groups;
  if (first === undefined) return new MatchAllConstraint();
  if (rest.length === 0) return first;

  const merged: Constraint[] = [];
  let left = first;
  let optimized = false;
  for (const right of rest) {
    const l = contiguousRange(left);
    const r = contiguousRange(right);
    if (l && r && l[1].toString().slice(2) === r[0].toString().slice(3)) {
      optimized = true;
      left = new MultiConstraint([l[0], r[1]], true);
    } else {
      merged.push(left);
      left = right;
    }
  }
  if (!optimized) return new MultiConstraint(groups, false);
  merged.push(left);
  return merged.length === 1 && merged[0] ? merged[0] : new MultiConstraint(merged, false);
}

/** The two halves of a `[>=x <y]`-shaped conjunction (by string form, as Composer checks). */
function contiguousRange(c: Constraint): readonly [Constraint, Constraint] | null {
  if (!(c instanceof MultiConstraint) || !c.conjunctive || c.constraints.length !== 2) return null;
  const [low, high] = c.constraints;
  if (!low || !high) return null;
  if (!low.toString().startsWith('>=') || !high.toString().startsWith('<')) return null;
  return [low, high];
}
