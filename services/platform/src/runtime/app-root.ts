// Files the platform reads at run time beside its code (worker scripts, the DDEX schemas, the built web
// app) are found from the application's root, not from __dirname: the same module runs from its source
// (jest, `npm run dev`) and from the bundled entry dist/omni/main.cjs, whose __dirname is dist/omni.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

let root: string | undefined;

/** The folder holding services/ and frontends/ (the repository, or /app in the image). */
export function appRoot(): string {
  if (root) return root;
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'services/platform/package.json'))) {
      root = dir;
      return dir;
    }
    if (dirname(dir) === dir) throw new Error(`Omni's files were not found above ${__dirname}`);
  }
}

/** A path under the application's root, e.g. appPath('services/delivery/ddex/ern43'). */
export function appPath(...segments: string[]): string {
  return join(appRoot(), ...segments);
}
