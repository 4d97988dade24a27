import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE } from './helpers.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-cli-'));
const children: ChildProcess[] = [];
afterAll(() => {
  children.forEach((c) => c.kill('SIGKILL'));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts `packyard serve` as `npm start` does and returns what it printed once it listens. */
async function start(port: number): Promise<{ child: ChildProcess; output: string }> {
  const child = spawn(process.execPath, ['bin/packyard.js', 'serve'], {
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      HOME: os.tmpdir(),
    },
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const check = () => (output.includes('Packyard is running') ? resolve() : undefined);
    child.stdout?.on('data', check);
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  return { child, output };
}

async function stop(child: ChildProcess): Promise<void> {
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

describe.skipIf(TEST_DATABASE !== 'sqlite')('packyard serve with no settings', () => {
  it('prints its URL, its data location and a generated admin token once, which then works', async () => {
    const port = await freePort();
    const first = await start(port);
    expect(first.output).toContain(`http://localhost:${port}`);
    expect(first.output).toContain(dataDir);
    const token = /^\s+(pya_\S+)$/m.exec(first.output)?.[1];
    expect(token).toBeDefined();
    const ok = await fetch(`http://127.0.0.1:${port}/api/v1/customers`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(ok.status).toBe(200);
    await stop(first.child);

    const second = await start(port);
    expect(second.output).not.toContain(token);
    const still = await fetch(`http://127.0.0.1:${port}/api/v1/packages`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(still.status).toBe(200);
    await stop(second.child);
  });

  it('refuses to start with an invalid setting and names it', async () => {
    const child = spawn(process.execPath, ['bin/packyard.js', 'serve'], {
      env: { PATH: process.env.PATH, PORT: 'eighty', DATA_DIR: dataDir },
    });
    let output = '';
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(output).toContain('PORT must be a whole number');
  });
});

describe.skipIf(TEST_DATABASE !== 'sqlite')('packyard worker', () => {
  it('serves /metrics and health on WORKER_METRICS_PORT, and stops on SIGTERM', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['bin/packyard.js', 'worker'], {
      env: {
        PATH: process.env.PATH,
        DATA_DIR: dataDir,
        WORKER_METRICS_PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        HOME: os.tmpdir(),
      },
    });
    children.push(child);
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => (output.includes('Packyard worker running') ? resolve() : 0));
      child.on('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
    });
    expect(output).toContain(`/metrics, /healthz and /readyz on port ${port}`);
    const metrics = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toContain('packyard_tasks{status="pending"}');
    expect(text).toContain('process_cpu_seconds_total');
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/api/v1/packages`)).status).toBe(404);
    await stop(child);
  });
});
