// The zip thread's entry (zip-thread.ts): worker threads do not inherit the server's TypeScript
// loader, so this plain-JavaScript file registers it before loading the thread's code.
import { register } from 'tsx/esm/api';

register();
await import('./zip-thread-main.ts');
