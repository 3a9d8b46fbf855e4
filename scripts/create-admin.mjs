#!/usr/bin/env node
// Creates an Omni administrator (or promotes an existing account): `npm run create-admin -- <email> [password]`.
// Talks to the running identity service over gRPC (IDENTITY_GRPC_ADDR, default 127.0.0.1:50051, the
// all-in-one port), so it works the same with the embedded issuer and with Keycloak. Without a password
// argument one is generated and printed once, here, on your terminal (never logged).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', 'scripts/create-admin.ts', ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
process.exit(result.status ?? 1);
