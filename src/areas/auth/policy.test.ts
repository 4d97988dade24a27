import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import type { Actor, Ctx } from '../../context.js';
import {
  ANONYMOUS,
  INTERNAL,
  PLATFORM,
  PLATFORM_ACTOR,
  PUBLIC,
  READ,
  WRITE,
  guard,
  unguarded,
} from './authorize.js';
import { POLICY } from './policy.js';
import { ROUTE_OPERATIONS, assertRouteOperation, routeRule } from '../../http/route-operations.js';

/** A service with one operation of each kind, one helper without a rule, and a field. */
class Sample {
  readonly emitter = { on: () => undefined };
  read(_ctx: Ctx) {
    return Promise.resolve('read');
  }
  write(_ctx: Ctx) {
    return Promise.resolve('written');
  }
  background(_tenantId: string) {
    return Promise.resolve('done');
  }
  internalWithCtx(_ctx: Ctx) {
    return Promise.resolve('internal');
  }
  open(_secret: string) {
    return Promise.resolve('open');
  }
  platform(_ctx: Ctx) {
    return Promise.resolve('platform');
  }
  unlisted(_ctx: Ctx) {
    return Promise.resolve('unlisted');
  }
}

const rules = {
  read: READ,
  write: WRITE,
  background: INTERNAL,
  internalWithCtx: INTERNAL,
  open: PUBLIC,
  platform: PLATFORM,
};
const sample = guard('sample', new Sample(), rules, 'enterprise');
const as = (actor: Actor): Ctx => ({ tenantId: 'default', actor });
const owner = as({ kind: 'root', id: null, level: 'owner' });
const viewer = as({ kind: 'cma', id: 't1', level: 'viewer' });
const system = as({ kind: 'system', id: null });
const customer = as({ kind: 'customer', id: 'k', customerId: 'c', scope: 'admin' });
const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (err: { code?: string }) => err.code,
  );

describe('the guard denies by default', () => {
  it('refuses a method without a rule, whoever calls it', async () => {
    expect(await code(sample.unlisted(owner))).toBe('FORBIDDEN');
    expect(await code(sample.unlisted(system))).toBe('FORBIDDEN');
    expect(await code(unguarded(sample, 'the instance itself').unlisted(owner))).toBe('ok');
  });

  it('refuses a call without a context: none, a string, or a request that looks like one', async () => {
    class Request {
      tenantId = 'default';
      actor = owner.actor;
      headers = {};
    }
    const fake = new Request() as unknown as Ctx;
    expect(await code(sample.read(undefined as unknown as Ctx))).toBe('UNAUTHORIZED');
    expect(await code(sample.background('default'))).toBe('UNAUTHORIZED');
    expect(await code(sample.read(fake))).toBe('UNAUTHORIZED');
    const unknownActor = { tenantId: 'default', actor: { kind: 'god', id: null } };
    expect(await code(sample.read(unknownActor as unknown as Ctx))).toBe('UNAUTHORIZED');
    expect(await code(sample.read({ ...owner }))).toBe('ok');
  });

  it('keeps reads, writes and internal helpers to their actors', async () => {
    expect(await code(sample.read(viewer))).toBe('ok');
    expect(await code(sample.write(viewer))).toBe('FORBIDDEN');
    expect(await code(sample.write(owner))).toBe('ok');
    expect(await code(sample.read(customer))).toBe('FORBIDDEN');
    expect(await code(sample.internalWithCtx(owner))).toBe('FORBIDDEN');
    expect(await code(sample.internalWithCtx(customer))).toBe('FORBIDDEN');
    expect(await code(sample.internalWithCtx(system))).toBe('ok');
    expect(await code(sample.internalWithCtx(as({ kind: 'webhook', id: 'github' })))).toBe('ok');
  });

  it('lets the anonymous actor run only public operations, the platform only its own', async () => {
    const anonymous = as(ANONYMOUS);
    const platform = as(PLATFORM_ACTOR);
    expect(await code(sample.read(anonymous))).toBe('UNAUTHORIZED');
    expect(await code(sample.write(anonymous))).toBe('UNAUTHORIZED');
    expect(await code(sample.open('secret'))).toBe('ok');
    expect(await code(sample.platform(platform))).toBe('ok');
    expect(await code(sample.platform(owner))).toBe('FORBIDDEN');
    expect(await code(sample.read(platform))).toBe('FORBIDDEN');
    expect(await code(sample.write(platform))).toBe('FORBIDDEN');
  });

  it('keeps members that are not methods off the guarded surface', () => {
    expect(() => sample.emitter).toThrow(/not an operation/);
  });

  it('refuses to start when a rule names no method of its service', () => {
    expect(() => guard('sample', new Sample(), { ...rules, gone: READ }, 'enterprise')).toThrow(
      /POLICY.sample.gone names no method/,
    );
  });
});

describe('the route table', () => {
  it('gives every route a rule of POLICY', () => {
    for (const key of Object.keys(ROUTE_OPERATIONS)) {
      const [method, url] = key.split(' ');
      expect(routeRule(method!, url), key).toBeTypeOf('object');
    }
    expect(routeRule('HEAD', '/api/v1/customers')).toBe(POLICY.customers.list);
    expect(routeRule('GET', '/api/v1/tenants')).toBe(POLICY.tenants.list);
  });

  it('refuses, at run time, a route it does not list', () => {
    expect(() => routeRule('GET', '/api/v1/unlisted')).toThrow(/names no operation/);
  });

  it('refuses, at boot, an unlisted route, reads included, and a public route that writes', () => {
    const app = Fastify();
    app.addHook('onRoute', assertRouteOperation);
    expect(() => app.get('/api/v1/unlisted', async () => ({}))).toThrow(/names no operation/);
    const config = { auth: { public: true } };
    expect(() => app.post('/api/v1/customers', { config }, async () => ({}))).toThrow(
      /is public, but its operation is not PUBLIC/,
    );
    expect(() => app.get('/api/v1/license', { config }, async () => ({}))).toThrow(/not PUBLIC/);
  });
});

describe('transports', () => {
  it('never reach past the guard (`unguarded` is for wiring and tests)', () => {
    const transports: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.test\.ts$/.test(file)) continue;
        else if (!file.startsWith('src/areas') || /(routes|graphql)\.ts$/.test(file)) {
          transports.push(file);
        }
      }
    };
    for (const dir of ['src/areas', 'src/http', 'src/graphql']) walk(dir);
    expect(transports.length).toBeGreaterThan(20);
    const reaching = transports.filter((f) => /\bunguarded\(/.test(fs.readFileSync(f, 'utf8')));
    expect(reaching).toEqual([]);
  });
});
