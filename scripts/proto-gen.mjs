#!/usr/bin/env node
// Generates TypeScript from proto/ with buf + ts-proto, both from the npm registry (no protoc download).
// `--check` generates into a temporary folder and fails if the committed proto/gen differs, so CI
// catches a contract changed without regenerating.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// fileURLToPath, not URL.pathname: the latter keeps %20 for a space, so a checkout at '~/omni copy' broke.
const root = fileURLToPath(new URL('..', import.meta.url));
const protoDir = join(root, 'proto');
const buf = join(root, 'node_modules', '.bin', 'buf');
const check = process.argv.includes('--check');

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}

execFileSync(buf, ['lint'], { cwd: protoDir, stdio: 'inherit' });
const out = mkdtempSync(join(tmpdir(), 'omni-proto-'));
try {
  execFileSync(buf, ['generate', '-o', out], { cwd: protoDir, stdio: 'inherit' });
  const fresh = join(out, 'gen');
  if (check) {
    const current = join(protoDir, 'gen');
    const a = files(fresh)
      .map((f) => relative(fresh, f))
      .sort();
    const b = files(current)
      .map((f) => relative(current, f))
      .sort();
    const stale =
      a.join('\n') !== b.join('\n') ||
      a.some((f) => readFileSync(join(fresh, f), 'utf8') !== readFileSync(join(current, f), 'utf8'));
    if (stale) {
      console.error('proto/gen is out of date: run `npm run proto:gen` and commit the result.');
      process.exit(1);
    }
    console.log('proto/gen is current.');
  } else {
    rmSync(join(protoDir, 'gen'), { recursive: true, force: true });
    cpSync(fresh, join(protoDir, 'gen'), { recursive: true });
    console.log('proto/gen regenerated.');
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
