import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runGit } from './exec.js';

let userAttributes: Promise<string | null> | null = null;

/**
 * Attribute files git archive would read besides the tree's own (the mirror's info/attributes,
 * core.attributesFile, the user's and the system's): with any of them, git builds every zip.
 */
export async function environmentAttributes(gitDir: string): Promise<string | null> {
  const exists = (file: string) =>
    fs.access(file).then(
      () => true,
      () => false,
    );
  if (await exists(path.join(gitDir, 'info', 'attributes')))
    return 'the mirror has info/attributes';
  const config = await fs.readFile(path.join(gitDir, 'config'), 'utf8').catch(() => '');
  if (/attributesfile|include/i.test(config)) return 'the mirror sets core.attributesFile';
  userAttributes ??= (async () => {
    const xdg = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
    const files = [
      '/etc/gitconfig',
      path.join(os.homedir(), '.gitconfig'),
      path.join(xdg, 'git', 'config'),
    ];
    const texts = await Promise.all(files.map((f) => fs.readFile(f, 'utf8').catch(() => '')));
    // Includes, or configuration moved elsewhere by the environment: let git read it.
    const plain =
      !process.env.GIT_CONFIG_GLOBAL &&
      !process.env.GIT_CONFIG_SYSTEM &&
      !texts.some((t) => /^\s*\[include/im.test(t));
    if (plain && texts.some((t) => /attributesfile/i.test(t))) return 'core.attributesFile is set';
    for (const scope of plain ? [] : ['--system', '--global']) {
      const { stdout } = await runGit(['config', scope, '--get', 'core.attributesFile'], {
        allowExitCodes: [1, 128],
      });
      if (stdout.toString().trim() !== '') return `core.attributesFile is set (${scope.slice(2)})`;
    }
    if (await exists(path.join(xdg, 'git', 'attributes')))
      return 'a user gitattributes file exists';
    if (!process.env.GIT_ATTR_NOSYSTEM && (await exists('/etc/gitattributes'))) {
      return '/etc/gitattributes exists';
    }
    return null;
  })();
  return userAttributes;
}
