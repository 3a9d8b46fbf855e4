// A checkout may live anywhere a user chooses: under a hidden folder, in a folder whose name has a space.
// `npm test` starts with the proto freshness check, whose script once took its root from URL.pathname
// ('omni%20copy') and could not find buf. Here the script runs from such a place, against a copy of the
// contracts, with the real buf reached through the checkout's node_modules.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '../..');
let checkout: string;

beforeAll(() => {
  const base = mkdtempSync(join(tmpdir(), 'omni-path-'));
  checkout = join(base, '.hidden', 'omni copy');
  mkdirSync(join(checkout, 'scripts'), { recursive: true });
  cpSync(join(root, 'scripts', 'proto-gen.mjs'), join(checkout, 'scripts', 'proto-gen.mjs'));
  cpSync(join(root, 'proto'), join(checkout, 'proto'), {
    recursive: true,
    filter: (src) => !src.includes(`${join(root, 'proto', 'node_modules')}`),
  });
  symlinkSync(join(root, 'node_modules'), join(checkout, 'node_modules'));
});

afterAll(() => rmSync(join(checkout, '..', '..'), { recursive: true, force: true }));

it('checks the generated contracts from a checkout under a dot-folder with a space in its name', () => {
  const run = () =>
    execFileSync(process.execPath, [join(checkout, 'scripts', 'proto-gen.mjs'), '--check'], {
      cwd: checkout,
      encoding: 'utf8',
      stdio: 'pipe',
    });
  expect(run).not.toThrow();
}, 120_000);
