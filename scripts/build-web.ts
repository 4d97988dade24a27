// `npm start` runs this first (prestart): builds web/ into web/dist when missing or stale.
import { ensureWebBuild } from './web-build.js';

ensureWebBuild();
