// Where a tool unpacked from Debian's packages by scripts/fpcalc.mjs is (its folder under .engines/), or the
// system's own, and the environment to run it with: the unpacked tree's libraries come first on
// LD_LIBRARY_PATH, since the tree carries the ones the machine lacks.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export interface Located {
  binary: string;
  libs?: string;
}

/** `given`: an explicit path (an env variable), which alone decides when set. */
export function locateTool(name: string, tree: string, given?: string): Located | null {
  if (given?.trim()) return existsSync(given.trim()) ? { binary: given.trim() } : null;
  const homes: string[] = [];
  if (process.env.OMNI_ENGINES_DIR?.trim()) homes.push(resolve(process.env.OMNI_ENGINES_DIR.trim()));
  // The repository's .engines/, found from this file (sources) or the bundle (dist/omni) and from the cwd.
  for (let dir = __dirname, i = 0; i < 6; i++, dir = dirname(dir)) homes.push(join(dir, '.engines'));
  homes.push(join(process.cwd(), '.engines'));
  for (const home of homes) {
    const binary = join(home, tree, 'usr', 'bin', name);
    if (existsSync(binary)) return { binary, libs: join(home, tree, 'usr', 'lib', 'x86_64-linux-gnu') };
  }
  for (const binary of [`/usr/bin/${name}`, `/usr/local/bin/${name}`])
    if (existsSync(binary)) return { binary };
  return null;
}

export function toolEnv(located: Located): NodeJS.ProcessEnv {
  if (!located.libs) return process.env;
  return {
    ...process.env,
    LD_LIBRARY_PATH: [located.libs, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
  };
}
