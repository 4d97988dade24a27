/**
 * E-mail notifications (docs/notifications.md) end to end, against a real `packyard serve`
 * (SQLite, one process, its in-process worker) whose SMTP_URL is a real SMTP server in this
 * process (`smtp-server`, test/fakes/smtp.ts): MAILS (default 50) vendor advisories, one after
 * another, each about a held version of an uploaded package, each waited for as a mail. The
 * latency runs from the advisory's HTTP answer to the SMTP server having the whole message: the
 * match against held versions, the outbox event, the notifier task and the SMTP hand-over. The
 * time to the TCP connection's opening is Packyard's part; the rest is the SMTP conversation,
 * of which 100 ms are smtp-server's fixed wait for early talkers before its greeting.
 * Run with `node --import tsx bench/notifications.ts`. Prints p50/p99 in milliseconds.
 */
import fs from 'node:fs';
import { packageZip } from '../src/areas/artifacts/test-zips.js';
import { FakeSmtp } from '../test/fakes/smtp.js';
import { call, startServe } from './http.js';
import { sleep } from './processes.js';

const MAILS = Number(process.env.MAILS ?? 50);

async function main(): Promise<void> {
  const smtp = await new FakeSmtp().start();
  const { server, dataDir } = await startServe('mail', { SMTP_URL: smtp.url });
  try {
    const api = `${server.url}/api/v1`;
    await call(`${api}/packages`, 'POST', { name: 'bench/held', type: 'artifact' });
    const zip = packageZip({ name: 'bench/held', version: '1.0.0' });
    await call(`${api}/packages/bench/held/artifacts`, 'POST', zip, { type: 'application/zip' });
    await call(`${api}/settings`, 'PATCH', { notification_emails: ['ops@example.test'] });
    const times: number[] = [];
    const toConnect: number[] = [];
    for (let i = 0; i < MAILS; i++) {
      const before = smtp.received.length;
      const connections = smtp.connectedAt.length;
      await call(`${api}/advisories`, 'POST', {
        package: 'bench/held',
        title: `Flaw ${i}`,
        affected_versions: '<2.0',
      });
      const answered = performance.now();
      const deadline = Date.now() + 30_000;
      while (smtp.received.length === before) {
        if (Date.now() > deadline) throw new Error(`no mail for advisory ${i}`);
        await sleep(1);
      }
      times.push(performance.now() - answered);
      toConnect.push(smtp.connectedAt[connections]! - answered);
    }
    const report = (label: string, list: number[]) => {
      list.sort((a, b) => a - b);
      const at = (q: number) => list[Math.min(list.length - 1, Math.floor(q * list.length))]!;
      console.log(
        `${label} (${MAILS} mails): p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, ` +
          `min ${list[0]!.toFixed(1)} ms, max ${list.at(-1)!.toFixed(1)} ms`,
      );
    };
    report('advisory answered -> SMTP connection opened (Packyard)', toConnect);
    report('advisory answered -> mail received', times);
  } finally {
    await server.stop();
    await smtp.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
