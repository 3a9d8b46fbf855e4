// Each sentence the web app and the API both show is written once, in the API contract (proto/api). A copy
// elsewhere drifts (the release-date and BPM messages once did), so any source file outside proto/api that
// spells one out fails here: import it from '@omni/proto/api' instead.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { AUTH_MESSAGES, RELEASE_MESSAGES } from '@omni/proto/api';

const ROOT = join(__dirname, '../..');
const SOURCES = ['services', 'frontends'];
const SHARED = [...Object.values(AUTH_MESSAGES), ...Object.values(RELEASE_MESSAGES)];

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', 'dist', 'test', 'gen'].includes(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) yield path;
  }
}

it('no source outside proto/api writes a shared message', () => {
  const copies: string[] = [];
  for (const top of SOURCES) {
    for (const file of sourceFiles(join(ROOT, top))) {
      const text = readFileSync(file, 'utf8');
      for (const message of SHARED) {
        if (text.includes(`'${message}'`) || text.includes(`"${message}"`) || text.includes(`\`${message}\``))
          copies.push(`${relative(ROOT, file)}: ${message}`);
      }
    }
  }
  expect(copies).toEqual([]);
});
