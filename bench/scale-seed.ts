/**
 * The customers of bench/scale.ts, written straight to the database next to a catalogue seeded by
 * bench/catalogue.ts: customers sold one of a few plans (a collection of 50 packages each, granted
 * `^1.0`), download tokens for some of them, and a few customers with a grant of their own.
 */
import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Insertable } from 'kysely';
import { loadConfig } from '../src/config/index.js';
import { openRuntime } from '../src/runtime.js';
import { digest, generateSecret } from '../src/infra/crypto.js';
import { CUSTOMER_TOKEN_PREFIX } from '../src/areas/auth/service.js';
import { DEFAULT_TENANT_ID } from '../src/infra/db/schema.js';
import type { Database } from '../src/infra/db/schema.js';
import { unscoped } from '../src/infra/db/tenant-scope.js';

const ROWS_PER_INSERT = 500;
export const PLAN_SIZE = 50;
const tenant_id = DEFAULT_TENANT_ID;

export interface Audiences {
  /** Package names of each plan. */
  plans: string[][];
  /** Tokens of plan customers: `plan` is the index into `plans`. */
  tokens: { plan: number; secret: string }[];
  /** Tokens of customers whose one direct grant is theirs alone, and its package. */
  own: { name: string; secret: string }[];
  seconds: number;
}

export interface AudienceSpec {
  env: Record<string, string>;
  customers: number;
  plans: number;
  tokens: number;
  own: number;
}

type Rows<T extends keyof Database> = Insertable<Database[T]>[];

export async function seedAudiences(spec: AudienceSpec): Promise<Audiences> {
  const started = performance.now();
  const runtime = await openRuntime(loadConfig({ WORKER: 'off', LOG_LEVEL: 'warn', ...spec.env }));
  const db = unscoped(runtime.services.deps.db, 'the benchmark seeds its customers');
  const insert = async <T extends keyof Database>(table: T, rows: Rows<T>) => {
    for (let k = 0; k < rows.length; k += ROWS_PER_INSERT) {
      await db
        .insertInto(table)
        .values(rows.slice(k, k + ROWS_PER_INSERT))
        .execute();
    }
  };
  try {
    const now = new Date().toISOString();
    const packages = await db
      .selectFrom('packages')
      .select(['id', 'name'])
      .where('tenant_id', '=', tenant_id)
      .orderBy('name')
      .execute();
    const step = Math.max(1, Math.floor(packages.length / (spec.plans * PLAN_SIZE)));
    const plans = Array.from({ length: spec.plans }, (_, p) =>
      Array.from(
        { length: PLAN_SIZE },
        (_, k) => packages[((p * PLAN_SIZE + k) * step) % packages.length]!,
      ),
    );
    await insert(
      'collections',
      plans.map((_, p) => ({
        id: `plan-${p}`,
        tenant_id,
        slug: `plan-${p}`,
        name: `Plan ${p}`,
        created_at: now,
        updated_at: now,
      })),
    );
    await insert(
      'collection_packages',
      plans.flatMap((members, p) =>
        members.map((pkg) => ({
          tenant_id,
          collection_id: `plan-${p}`,
          package_id: pkg.id,
          added_at: now,
        })),
      ),
    );
    const customer = (i: number) => ({
      id: `cust-${i}`,
      tenant_id,
      name: `Customer ${i}`,
      email: `c${i}@example.test`,
      external_id: null,
      status: 'ACTIVE',
      status_reason: null,
      access_expires_at: null,
      status_source: null,
      payment_event_at: null,
      created_at: now,
      updated_at: now,
    });
    const token = (customerId: string, secret: string) => ({
      id: crypto.randomUUID(),
      tenant_id,
      customer_id: customerId,
      name: 'bench',
      scope: 'download',
      package_scopes: '[]',
      token_digest: digest(secret),
      expires_at: null,
      created_at: now,
      last_used_at: null,
    });
    const tokens: Audiences['tokens'] = [];
    const tokenRows: Rows<'customer_tokens'> = [];
    for (let start = 0; start < spec.customers; start += 5_000) {
      const end = Math.min(spec.customers, start + 5_000);
      const ids = Array.from({ length: end - start }, (_, k) => start + k);
      await insert('customers', ids.map(customer));
      await insert(
        'collection_grants',
        ids.map((i) => ({
          tenant_id,
          customer_id: `cust-${i}`,
          collection_id: `plan-${i % spec.plans}`,
          constraint: '^1.0',
          granted_at: now,
        })),
      );
    }
    for (let i = 0; i < Math.min(spec.tokens, spec.customers); i++) {
      const secret = generateSecret(CUSTOMER_TOKEN_PREFIX);
      tokens.push({ plan: i % spec.plans, secret });
      tokenRows.push(token(`cust-${i}`, secret));
    }
    const own: Audiences['own'] = [];
    const ownRows: Rows<'customers'> = [];
    const grantRows: Rows<'grants'> = [];
    for (let i = 0; i < spec.own; i++) {
      const id = `own-${i}`;
      const pkg = packages[(i * 7919 + 13) % packages.length]!;
      const secret = generateSecret(CUSTOMER_TOKEN_PREFIX);
      ownRows.push({ ...customer(i), id });
      grantRows.push({
        tenant_id,
        customer_id: id,
        package_id: pkg.id,
        constraint: '^1.0',
        granted_at: now,
      });
      tokenRows.push(token(id, secret));
      own.push({ name: pkg.name, secret });
    }
    await insert('customers', ownRows);
    await insert('grants', grantRows);
    await insert('customer_tokens', tokenRows);
    // Statistics for the planner, as a database that grew over time has them.
    await sql`analyze`.execute(db);
    return {
      plans: plans.map((members) => members.map((p) => p.name)),
      tokens,
      own,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await runtime.close();
  }
}
