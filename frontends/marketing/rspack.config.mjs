import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createConfig } from '../rspack.base.mjs';
import { createPrerenderConfig } from '../rspack.prerender.mjs';
import { exposes } from './src/exposes.mjs';

const packageDir = path.dirname(fileURLToPath(import.meta.url));

export default (env, argv) => {
  const mode = argv.mode ?? (env.RSPACK_SERVE ? 'development' : 'production');
  const browser = createConfig({ name: 'marketing', packageDir, exposes }, mode);
  // The public pages' HTML is rendered at build time for production; the dev server renders in the browser.
  return mode === 'production'
    ? [browser, createPrerenderConfig({ name: 'marketing', packageDir, entry: './src/prerender.tsx' })]
    : browser;
};
