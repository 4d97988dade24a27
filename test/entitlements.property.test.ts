/**
 * A model of entitlements against a `packyard serve` cluster (WEB_CONCURRENCY=2): seeded random
 * sequences of admin changes over 2 customers, 3 packages (1.0.0, 1.1.0, 2.0.0), 1 collection
 * and 3 token slots. After every change, at once (no waiting), each token reads every p2 document
 * and packages.json twice on fresh connections (so both processes answer each one), and every
 * answer must be what the model says the token may see: the status, and the versions (p2) or
 * `available-packages` (packages.json).
 *
 * The model (docs/access.md "How visibility is decided", docs/composer.md, visibility.ts and
 * composer-repository/service.ts): a revoked or rotated-away token is 401; a suspended customer
 * is 403 everywhere; a package with no grant, direct or through the granted collection, is 403;
 * otherwise 200 with the versions that satisfy any of its grants' constraints (the union), yanked
 * versions never listed. packages.json lists every package with at least one grant.
 *
 * ENTITLEMENTS_SEED replays a run (the seed is printed); ENTITLEMENTS_RUNS and
 * ENTITLEMENTS_STEPS size it (5 sequences of 15 steps by default); ENTITLEMENTS_SHRINK=1 lets
 * fast-check shrink a failure (slow: every try replays a sequence against the server);
 * ENTITLEMENTS_CONCURRENCY=1 checks the model against one process.
 */
import crypto from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { packageZip } from '../src/areas/artifacts/test-zips.js';
import { basicAuth } from './helpers.js';
import { fresh, startServe } from './cluster-helpers.js';
import type { Answer, Serve } from './cluster-helpers.js';

const SEED = process.env.ENTITLEMENTS_SEED
  ? Number(process.env.ENTITLEMENTS_SEED)
  : crypto.randomInt(0, 2 ** 31 - 1);
const RUNS = Number(process.env.ENTITLEMENTS_RUNS ?? '5');
const STEPS = Number(process.env.ENTITLEMENTS_STEPS ?? '15');
const SHRINK = process.env.ENTITLEMENTS_SHRINK === '1';
const CONCURRENCY = Number(process.env.ENTITLEMENTS_CONCURRENCY ?? '2');

const VERSIONS = ['1.0.0', '1.1.0', '2.0.0'] as const;
type Version = (typeof VERSIONS)[number];
const CONSTRAINTS = ['*', '^1.0', '^2.0', '1.0.0'] as const;
type Constraint = (typeof CONSTRAINTS)[number];
/** Which of the three versions each constraint admits (Composer's Semver::satisfies). */
const ADMITS: Record<Constraint, readonly Version[]> = {
  '*': VERSIONS,
  '^1.0': ['1.0.0', '1.1.0'],
  '^2.0': ['2.0.0'],
  '1.0.0': ['1.0.0'],
};
const CUSTOMERS = [0, 1] as const;
const PACKAGES = [0, 1, 2] as const;
const SLOTS = [0, 1, 2] as const;
type C = (typeof CUSTOMERS)[number];
type P = (typeof PACKAGES)[number];
type S = (typeof SLOTS)[number];

type Action =
  | { kind: 'grant'; customer: C; pkg: P; constraint: Constraint }
  | { kind: 'ungrant'; customer: C; pkg: P }
  | { kind: 'collectionMember'; pkg: P }
  | { kind: 'collectionGrant'; customer: C; constraint: Constraint }
  | { kind: 'status'; customer: C }
  | { kind: 'revoke'; slot: S }
  | { kind: 'issue'; slot: S; customer: C }
  | { kind: 'yank'; pkg: P; version: Version };

const customer = fc.constantFrom(...CUSTOMERS);
const pkg = fc.constantFrom(...PACKAGES);
const slot = fc.constantFrom(...SLOTS);
const constraint = fc.constantFrom(...CONSTRAINTS);
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('grant' as const), customer, pkg, constraint }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('ungrant' as const), customer, pkg }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('collectionMember' as const), pkg }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('collectionGrant' as const), customer, constraint }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('status' as const), customer }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('revoke' as const), slot }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('issue' as const), slot, customer }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('yank' as const),
      pkg,
      version: fc.constantFrom(...VERSIONS),
    }),
  },
);

interface Slot {
  value: string;
  id: string;
  customer: C;
  live: boolean;
}

/** What the registry holds, as the test believes it. */
interface Model {
  suspended: [boolean, boolean];
  /** Direct grants per customer: package index -> constraint. */
  direct: [Map<P, Constraint>, Map<P, Constraint>];
  /** Packages in the collection. */
  members: Set<P>;
  /** The collection's grant per customer. */
  collectionGrant: [Constraint | null, Constraint | null];
  yanked: [Set<Version>, Set<Version>, Set<Version>];
  slots: [Slot, Slot, Slot];
  /** The last values revoked or rotated away (each must keep answering 401). */
  ghosts: string[];
}

/** One sequence's registry objects: fresh names, so sequences never meet. */
interface World {
  packages: [string, string, string];
  customers: [string, string];
  slug: string;
}

/** An answer reduced to what the model predicts. */
type Seen = { status: number; names?: string[] };

function expected(m: Model, w: World, token: { customer: C; live: boolean }, path: string): Seen {
  if (!token.live) return { status: 401 };
  if (m.suspended[token.customer]) return { status: 403 };
  const constraintsOf = (p: P): Constraint[] => {
    const out: Constraint[] = [];
    const direct = m.direct[token.customer].get(p);
    if (direct) out.push(direct);
    const viaCollection = m.collectionGrant[token.customer];
    if (viaCollection && m.members.has(p)) out.push(viaCollection);
    return out;
  };
  if (path === '/packages.json') {
    return {
      status: 200,
      names: PACKAGES.filter((p) => constraintsOf(p).length > 0)
        .map((p) => w.packages[p])
        .sort(),
    };
  }
  const p = PACKAGES.find((i) => path === p2(w.packages[i]));
  if (p === undefined) throw new Error(`no model for ${path}`);
  const constraints = constraintsOf(p);
  if (constraints.length === 0) return { status: 403 };
  return {
    status: 200,
    names: VERSIONS.filter(
      (v) => !m.yanked[p].has(v) && constraints.some((c) => ADMITS[c].includes(v)),
    ),
  };
}

function seen(answer: Answer, path: string): Seen {
  if (answer.status !== 200) return { status: answer.status };
  const doc = JSON.parse(answer.body) as {
    packages: Record<string, { version: string }[]>;
    'available-packages'?: string[];
  };
  if (path === '/packages.json') {
    return { status: 200, names: [...(doc['available-packages'] ?? [])].sort() };
  }
  const versions = Object.values(doc.packages)[0] ?? [];
  return { status: 200, names: versions.map((e) => e.version).sort() };
}

const p2 = (name: string) => `/p2/${name}.json`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`entitlements on packyard serve with WEB_CONCURRENCY=${CONCURRENCY}`, () => {
  let s: Serve;
  let sequence = 0;

  beforeAll(async () => {
    s = await startServe({ label: 'entitlements', concurrency: CONCURRENCY });
  }, 120_000);

  afterAll(async () => {
    await s?.stop();
  }, 60_000);

  async function issueToken(customerId: string): Promise<{ value: string; id: string }> {
    const issued = await s.api('POST', `/customers/${customerId}/tokens`, {
      name: `t${crypto.randomBytes(3).toString('hex')}`,
      scope: 'download',
    });
    return { value: String(issued.plain_token), id: String(issued.token.id) };
  }

  /** The starting point of a sequence: a few grants, one package in the granted collection. */
  async function setUp(): Promise<{ m: Model; w: World }> {
    sequence += 1;
    const vendor = `ent${sequence}${crypto.randomBytes(3).toString('hex')}`;
    const w: World = {
      packages: [`${vendor}/p0`, `${vendor}/p1`, `${vendor}/p2`],
      customers: ['', ''],
      slug: `${vendor}-col`,
    };
    for (const name of w.packages) {
      await s.api('POST', '/packages', { name, type: 'artifact' });
      for (const version of VERSIONS) {
        await s.api('POST', `/packages/${name}/artifacts`, packageZip({ name, version }));
      }
    }
    for (const c of CUSTOMERS) {
      const made = await s.api('POST', '/customers', {
        name: `${vendor} c${c}`,
        email: `${vendor}.c${c}@example.test`,
      });
      w.customers[c] = String(made.id);
    }
    await s.api('POST', '/collections', { name: w.slug, slug: w.slug, packages: [w.packages[2]] });
    await s.api('POST', `/customers/${w.customers[0]}/collections`, {
      collection: w.slug,
      constraint: '*',
    });
    await s.api('POST', `/customers/${w.customers[0]}/packages`, {
      package: w.packages[0],
      constraint: '*',
    });
    await s.api('POST', `/customers/${w.customers[1]}/packages`, {
      package: w.packages[1],
      constraint: '^1.0',
    });
    const owners: [C, C, C] = [0, 1, 0];
    const slots = (await Promise.all(
      owners.map(async (c) => ({ ...(await issueToken(w.customers[c])), customer: c, live: true })),
    )) as [Slot, Slot, Slot];
    const m: Model = {
      suspended: [false, false],
      direct: [new Map([[0, '*']]), new Map([[1, '^1.0']])],
      members: new Set([2]),
      collectionGrant: ['*', null],
      yanked: [new Set(), new Set(), new Set()],
      slots,
      ghosts: [],
    };
    return { m, w };
  }

  /** Makes the change through the API and in the model; says what it did. */
  async function apply(a: Action, m: Model, w: World): Promise<string> {
    switch (a.kind) {
      case 'grant': {
        m.direct[a.customer].set(a.pkg, a.constraint);
        await s.api('PUT', `/customers/${w.customers[a.customer]}/packages`, {
          packages: [...m.direct[a.customer]].map(([p, c]) => ({
            package: w.packages[p],
            constraint: c,
          })),
        });
        return `grant c${a.customer} p${a.pkg} ${a.constraint}`;
      }
      case 'ungrant': {
        if (!m.direct[a.customer].has(a.pkg)) return `ungrant c${a.customer} p${a.pkg}: none`;
        m.direct[a.customer].delete(a.pkg);
        await s.api(
          'DELETE',
          `/customers/${w.customers[a.customer]}/packages/${w.packages[a.pkg]}`,
        );
        return `ungrant c${a.customer} p${a.pkg}`;
      }
      case 'collectionMember': {
        const name = w.packages[a.pkg];
        if (m.members.has(a.pkg)) {
          m.members.delete(a.pkg);
          await s.api('PATCH', `/collections/${w.slug}`, { remove_packages: [name] });
          return `collection - p${a.pkg}`;
        }
        m.members.add(a.pkg);
        await s.api('PATCH', `/collections/${w.slug}`, { add_packages: [name] });
        return `collection + p${a.pkg}`;
      }
      case 'collectionGrant': {
        const id = w.customers[a.customer];
        if (m.collectionGrant[a.customer] === a.constraint) {
          m.collectionGrant[a.customer] = null;
          await s.api('DELETE', `/customers/${id}/collections/${w.slug}`);
          return `collection grant c${a.customer} removed`;
        }
        m.collectionGrant[a.customer] = a.constraint;
        await s.api('POST', `/customers/${id}/collections`, {
          collection: w.slug,
          constraint: a.constraint,
        });
        return `collection grant c${a.customer} ${a.constraint}`;
      }
      case 'status': {
        const id = w.customers[a.customer];
        const suspend = !m.suspended[a.customer];
        m.suspended[a.customer] = suspend;
        await s.api('POST', `/customers/${id}/${suspend ? 'suspend' : 'reactivate'}`, {});
        return `${suspend ? 'suspend' : 'reactivate'} c${a.customer}`;
      }
      case 'revoke': {
        const t = m.slots[a.slot];
        if (!t.live) return `revoke t${a.slot}: already revoked`;
        t.live = false;
        await s.api('DELETE', `/customers/${w.customers[t.customer]}/tokens/${t.id}`);
        return `revoke t${a.slot} (c${t.customer})`;
      }
      case 'issue': {
        const t = m.slots[a.slot];
        m.ghosts = [...m.ghosts, t.value].slice(-2);
        if (t.live) {
          const rotated = await s.api(
            'POST',
            `/customers/${w.customers[t.customer]}/tokens/${t.id}/rotate`,
          );
          m.slots[a.slot] = {
            value: String(rotated.plain_token),
            id: String(rotated.token.id),
            customer: t.customer,
            live: true,
          };
          return `rotate t${a.slot} (c${t.customer})`;
        }
        const issued = await issueToken(w.customers[a.customer]);
        m.slots[a.slot] = { ...issued, customer: a.customer, live: true };
        return `new t${a.slot} for c${a.customer}`;
      }
      case 'yank': {
        const yanked = m.yanked[a.pkg];
        const verb = yanked.has(a.version) ? 'unyank' : 'yank';
        if (verb === 'yank') yanked.add(a.version);
        else yanked.delete(a.version);
        await s.api('POST', `/packages/${w.packages[a.pkg]}/${verb}/${a.version}`);
        return `${verb} p${a.pkg} ${a.version}`;
      }
    }
  }

  /** Every token reads everything twice, one fresh connection each: the mismatches. */
  async function check(m: Model, w: World): Promise<string[]> {
    const wrong: string[] = [];
    const paths = [...w.packages.map(p2), '/packages.json'];
    const ghost = (value: string) => ({ value, customer: 0 as const, live: false });
    const readers: {
      label: string;
      token: Pick<Slot, 'value' | 'customer' | 'live'>;
      paths: string[];
    }[] = [
      ...m.slots.map((t, i) => ({ label: `t${i}`, token: t, paths })),
      ...m.ghosts.map((value, i) => ({
        label: `ghost${i}`,
        token: ghost(value),
        paths: paths.slice(0, 1),
      })),
    ];
    for (const { label, token, paths: read } of readers) {
      const auth = { authorization: basicAuth(token.value) };
      for (const path of read) {
        const want = JSON.stringify(expected(m, w, token, path));
        for (let i = 0; i < 2; i++) {
          const got = JSON.stringify(seen(await fresh(`${s.url}${path}`, auth), path));
          if (got !== want) wrong.push(`${label} ${path} read ${i + 1}: want ${want}, got ${got}`);
        }
      }
    }
    return wrong;
  }

  it(
    'serves every token exactly what the model allows, right after each change',
    async () => {
      console.log(
        `entitlements: seed ${SEED}, ${RUNS} sequences of ${STEPS} steps ` +
          `(replay with ENTITLEMENTS_SEED=${SEED})`,
      );
      await fc.assert(
        fc.asyncProperty(
          fc.array(action, { minLength: STEPS, maxLength: STEPS }),
          async (actions) => {
            const { m, w } = await setUp();
            // Let every process notice the setup's own writes before the caches are warmed (the
            // old code polled once a second), so each step tests the change it made.
            await sleep(1_500);
            const log: string[] = [];
            const fail = (step: string, wrong: string[]) => {
              throw new Error(
                `seed ${SEED}, sequence of ${w.packages[0]}: after ${step}:\n  ` +
                  `${wrong.join('\n  ')}\nsteps so far:\n  ${log.join('\n  ')}`,
              );
            };
            const before = await check(m, w);
            if (before.length > 0) fail('setup', before);
            for (const a of actions) {
              const did = await apply(a, m, w);
              log.push(did);
              const wrong = await check(m, w);
              if (wrong.length > 0) fail(`step ${log.length} (${did})`, wrong);
            }
          },
        ),
        { seed: SEED, numRuns: RUNS, endOnFailure: !SHRINK },
      );
    },
    RUNS * STEPS * 4_000 + 60_000,
  );
});
