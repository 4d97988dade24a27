import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './index.js';

const load = (env: Record<string, string>) =>
  loadConfig({ DATA_DIR: '/srv/packyard', BASE_URL: 'https://packages.example.com', ...env });

describe('SMTP_URL and MAIL_FROM', () => {
  it('sends nothing without SMTP_URL, and names the sender after BASE_URL', () => {
    expect(load({}).mail).toEqual({
      smtpUrl: null,
      from: 'Packyard <packyard@packages.example.com>',
    });
    const set = load({
      SMTP_URL: 'smtps://mailer:p%40ss@mail.example.com:465',
      MAIL_FROM: 'Acme Registry <registry@acme.example>',
    }).mail;
    expect(set).toEqual({
      smtpUrl: 'smtps://mailer:p%40ss@mail.example.com:465',
      from: 'Acme Registry <registry@acme.example>',
    });
    expect(load({ MAIL_FROM: 'registry@acme.example' }).mail.from).toBe('registry@acme.example');
  });

  it('refuses a malformed SMTP_URL without repeating its password', () => {
    for (const bad of [
      'http://user:hunter2secret@mail.example.com',
      'smtp://user:hunter2secret@',
      'not a url hunter2secret',
    ]) {
      let error: unknown;
      try {
        load({ SMTP_URL: bad });
      } catch (err) {
        error = err;
      }
      expect(error, bad).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/SMTP_URL/);
      expect((error as Error).message).not.toContain('hunter2secret');
    }
  });

  it('refuses a MAIL_FROM that is not an address', () => {
    for (const bad of ['registry', 'Name <nope>', 'a@b\r\nBcc: x@y']) {
      expect(() => load({ MAIL_FROM: bad }), bad).toThrow(/MAIL_FROM/);
    }
  });
});
