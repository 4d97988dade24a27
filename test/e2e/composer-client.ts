import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface ComposerResult {
  code: number;
  output: string;
}

/**
 * A Composer project in a temp folder that uses only our repository, with its own
 * COMPOSER_HOME and cache, non-interactive, as a customer would set it up.
 */
export class ComposerProject {
  readonly dir: string;
  private readonly home: string;

  constructor(
    private readonly repoUrl: string,
    token: string,
  ) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'packyard-composer-'));
    this.home = path.join(this.dir, '.composer-home');
    fs.mkdirSync(this.home);
    this.writeJson('composer.json', {
      name: 'customer/app',
      repositories: [{ type: 'composer', url: repoUrl }, { 'packagist.org': false }],
      require: {},
      config: { 'secure-http': false },
    });
    this.setToken(token);
  }

  setToken(token: string): void {
    const host = new URL(this.repoUrl).host;
    this.writeJson('auth.json', {
      'http-basic': { [host]: { username: 'token', password: token } },
    });
  }

  writeJson(file: string, data: unknown): void {
    fs.writeFileSync(path.join(this.dir, file), JSON.stringify(data, null, 2));
  }

  readJson<T>(file: string): T {
    return JSON.parse(fs.readFileSync(path.join(this.dir, file), 'utf8')) as T;
  }

  /** Runs `composer <args>` with a cold cache unless told otherwise. */
  run(args: string[], { keepCache = false } = {}): Promise<ComposerResult> {
    const cache = path.join(this.home, 'cache');
    if (!keepCache) fs.rmSync(cache, { recursive: true, force: true });
    return new Promise((resolve, reject) => {
      // `composer audit` has no --no-progress option (Composer 2.5.5).
      const quiet = args[0] === 'audit' ? [] : ['--no-progress'];
      const child = spawn('composer', [...args, '--no-interaction', ...quiet, '--no-ansi'], {
        cwd: this.dir,
        env: {
          ...process.env,
          COMPOSER_HOME: this.home,
          COMPOSER_CACHE_DIR: cache,
          COMPOSER_NO_INTERACTION: '1',
          COMPOSER_ALLOW_SUPERUSER: '1',
          COMPOSER_DISABLE_XDEBUG_WARN: '1',
        },
      });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? -1, output }));
    });
  }

  /** The version of a package in composer.lock, or null. */
  lockedVersion(name: string): string | null {
    const lock = this.readJson<{ packages: { name: string; version: string }[] }>('composer.lock');
    return lock.packages.find((p) => p.name === name)?.version ?? null;
  }

  installedFile(name: string, file: string): string | null {
    const target = path.join(this.dir, 'vendor', name, file);
    return fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : null;
  }

  /** Deletes vendor/, so the next install must download every archive again. */
  removeVendor(): void {
    fs.rmSync(path.join(this.dir, 'vendor'), { recursive: true, force: true });
  }

  remove(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
