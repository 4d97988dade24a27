// The git launcher: a small process the server starts once and asks to start its git processes,
// so that the fork happens here (a few MB of memory to copy) and not in the server (hundreds).
// Plain JavaScript run by bare node: no tsx, no app code. Design and protocol: docs/architecture.md
// ("Starting git processes"); the server's side is launcher.ts.
import { spawn } from 'node:child_process';
import process from 'node:process';

process.title = 'packyard-git-launcher';

/** @type {Map<number, import('node:child_process').ChildProcess>} */
const running = new Map();

function send(message, handle) {
  if (!process.connected) return;
  try {
    process.send(message, handle);
  } catch {
    // The server is gone: 'disconnect' ends this process.
  }
}

/**
 * A stdio pipe of the child starts reading in this process as soon as node wraps it; whatever
 * it read would be lost once the pipe is handed to the server, so reading stops first (in the
 * same tick as the spawn, before the event loop could read anything).
 */
function stopReading(socket) {
  const handle = socket?._handle;
  if (!handle || typeof handle.readStop !== 'function') return false;
  handle.reading = false;
  handle.readStop();
  return true;
}

function killGroup(child) {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    try {
      child.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

function run({ id, program, args, env, stdin }) {
  let child;
  try {
    child = spawn(program, args, {
      env,
      stdio: [stdin === 'pipe' ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      detached: true,
    });
  } catch (err) {
    send({ t: 'error', id, message: String(err?.message ?? err), code: err?.code ?? null });
    return;
  }
  if (child.pid === undefined) {
    // ENOENT, EACCES…: node reports it as an 'error' event on the next tick.
    child.on('error', (err) => send({ t: 'error', id, message: err.message, code: err.code }));
    return;
  }
  if (!stopReading(child.stdout) || !stopReading(child.stderr)) {
    killGroup(child);
    send({ t: 'unsupported', id, message: 'cannot hand over pipes on this version of node' });
    return;
  }
  running.set(id, child);
  child.on('error', () => {});
  child.on('exit', (code, signal) => {
    running.delete(id);
    send({ t: 'exit', id, code, signal });
  });
  // Messages carrying a handle go out one at a time (each waits for the server's ack), and the
  // ones after them wait their turn: the server gets spawned, its pipes, then exit, in order.
  send({ t: 'spawned', id, pid: child.pid });
  send({ t: 'stdio', id, fd: 1 }, child.stdout);
  send({ t: 'stdio', id, fd: 2 }, child.stderr);
  if (child.stdin) send({ t: 'stdio', id, fd: 0 }, child.stdin);
}

process.on('message', (message) => {
  if (message?.t === 'run') run(message);
  else if (message?.t === 'kill') {
    const child = running.get(message.id);
    if (child) killGroup(child);
  }
});

// The server exited or closed the channel: nobody reads the output of what still runs.
process.on('disconnect', () => {
  for (const child of running.values()) killGroup(child);
  process.exit(0);
});

send({ t: 'ready' });
