// The first start creates an administrator so a newcomer can reach /admin at once. Embedded mode: the
// password is OMNI_ADMIN_PASSWORD or generated once and written to DATA_DIR/initial-admin.txt (mode 0600;
// the banner points there and never prints it). Keycloak mode: seeded only when OMNI_ADMIN_PASSWORD is
// set; otherwise `npm run create-admin` is the way (a generated password on a pod's disk helps nobody).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Logger, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '@omni/platform';
import type { IdentityProvider } from '../providers/identity/port';

export const SEEDED_ADMIN_EMAIL = 'admin@omni.local';
export const INITIAL_ADMIN_FILE = 'initial-admin.txt';

export async function seedAdmin(options: {
  provider: IdentityProvider;
  dataDir: string;
  configuredPassword?: string;
  createAdmin: (email: string, password: string) => Promise<void>;
  logger: Logger;
}): Promise<void> {
  const { provider, logger } = options;
  if (await provider.findUserByEmail(SEEDED_ADMIN_EMAIL)) return;
  if (provider.kind !== 'embedded' && !options.configuredPassword) {
    logger.info('no admin seeded: set OMNI_ADMIN_PASSWORD or run `npm run create-admin`');
    return;
  }
  const password = options.configuredPassword ?? randomBytes(12).toString('base64url');
  if (!options.configuredPassword) {
    // Written before the account exists: a crash in between leaves a file and no account, and the next
    // start overwrites the file with the password it really uses.
    mkdirSync(options.dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const file = join(options.dataDir, INITIAL_ADMIN_FILE);
    writeFileSync(
      file,
      `Omni's first administrator (created on first start).\nemail:    ${SEEDED_ADMIN_EMAIL}\npassword: ${password}\n\nChange it after signing in (Forgot password) and delete this file.\n`,
      { mode: PRIVATE_FILE_MODE },
    );
  }
  await options.createAdmin(SEEDED_ADMIN_EMAIL, password);
  logger.info({ email: SEEDED_ADMIN_EMAIL }, 'seeded the first administrator');
}

export const initialAdminFile = (dataDir: string) => {
  const file = join(dataDir, INITIAL_ADMIN_FILE);
  return existsSync(file) ? file : undefined;
};
