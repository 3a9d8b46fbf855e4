import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createConfig } from '../rspack.base.mjs';
import { exposes } from './src/exposes.mjs';

const packageDir = path.dirname(fileURLToPath(import.meta.url));

export default (env, argv) =>
  createConfig(
    { name: 'dashboard', packageDir, exposes },
    argv.mode ?? (env.RSPACK_SERVE ? 'development' : 'production'),
  );
