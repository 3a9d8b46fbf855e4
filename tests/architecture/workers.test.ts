// A TypeScript worker runs bundled in the product: every worker a service names is one the server's build
// bundles beside main.cjs, under the same name and from the same source (else startTsWorker would fall
// back to the sources, and a pod has no tsx).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { READER_WORKER } from '../../services/royalties/src/use-cases/statement-reader/protocol';

const root = join(__dirname, '../..');
const build = readFileSync(join(root, 'scripts/build-server.mjs'), 'utf8');
const workersBlock = /export const WORKERS = \{([\s\S]*?)\};/.exec(build)?.[1] ?? '';
const bundled = Object.fromEntries(
  [...workersBlock.matchAll(/'([^']+)':\s*'([^']+)'/g)].map((m) => [m[1], m[2]]),
);

describe('TypeScript workers', () => {
  it.each([READER_WORKER])('$name is bundled from its source', ({ name, source }) => {
    expect(bundled[name]).toBe(source);
    expect(existsSync(join(root, source))).toBe(true);
  });
});
