// A registry's SFTP store opens through openTransport with what the registry holds: a key file and the
// server's host key fingerprint as `ssh-keygen -l` prints it; a server with another host key is refused.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StoreProfile } from '../src/domain/stores/profile';
import { openTransport, simulatorRegistry } from '../src/providers/stores';
import { type RunningSshd, startSshd } from './support/sshd';

let sshd: RunningSshd | undefined;
let skipped: string | undefined;
let dir: string;
beforeAll(async () => {
  const started = await startSshd();
  if (typeof started === 'string') {
    skipped = started;
    console.log(`SKIPPED registry sftp: ${started}`);
    return;
  }
  sshd = started;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omni-registry-sftp-'));
}, 30_000);
afterAll(async () => {
  await sshd?.stop();
});

function profile(hostKeySha256: string): StoreProfile {
  const base = simulatorRegistry('/unused').get('spotify') as StoreProfile;
  const keyFile = path.join(dir, 'spotify_key');
  fs.writeFileSync(keyFile, sshd!.privateKey, { mode: 0o600 });
  return {
    ...base,
    endpoint: {
      protocol: 'sftp',
      host: '127.0.0.1',
      port: sshd!.port,
      username: sshd!.username,
      root: '.',
      privateKeyFile: keyFile,
      hostKeySha256,
    },
  };
}

test('the right fingerprint connects, another is refused', async () => {
  if (skipped || !sshd) return;
  const pub = path.join(dir, 'host.pub');
  fs.writeFileSync(pub, sshd.hostKey);
  // "256 SHA256:<base64> comment (ED25519)"
  const fingerprint = execFileSync('ssh-keygen', ['-lf', pub], { encoding: 'utf8' }).split(' ')[1]!;
  expect(fingerprint).toMatch(/^SHA256:/);

  const good = openTransport(profile(fingerprint));
  try {
    await expect(good.listAcknowledgements()).resolves.toEqual([]);
  } finally {
    await good.close();
  }
  const bad = openTransport(profile(`SHA256:${'A'.repeat(43)}`));
  try {
    await expect(bad.listAcknowledgements()).rejects.toMatchObject({ name: 'TransportError' });
  } finally {
    await bad.close();
  }
}, 30_000);
