// The body of `npm run create-admin` (see create-admin.mjs): validates the arguments and calls
// IdentityService.CreateAdmin on the running platform.
import { randomBytes } from 'node:crypto';
import { createGrpcClient } from '@omni/platform';
import { identity } from '@omni/proto';

async function main(): Promise<void> {
  const [email, given, ...rest] = process.argv.slice(2);
  if (!email || rest.length > 0 || email === '--help') {
    console.error('usage: npm run create-admin -- <email> [password]   (the platform must be running)');
    process.exit(2);
  }
  const password = given ?? randomBytes(12).toString('base64url');
  const address = process.env.IDENTITY_GRPC_ADDR ?? '127.0.0.1:50051';
  const client = createGrpcClient(identity.IdentityServiceService, address, { deadlineMs: 15_000 });
  try {
    const { user, created } = await client.createAdmin({ email, password, displayName: '' });
    console.log(
      created
        ? `Created administrator ${user?.email}.${given ? '' : `\nPassword (shown once): ${password}`}`
        : `${user?.email} already had an account; it is now an administrator (its password is unchanged).`,
    );
  } catch (err) {
    const e = err as { code?: number; details?: string; message: string };
    if (e.code === 14)
      console.error(
        `Identity is not reachable at ${address}. Start Omni first (npm start) or set IDENTITY_GRPC_ADDR.`,
      );
    else console.error(e.details || e.message);
    process.exitCode = 1;
  } finally {
    client.close();
  }
}

void main();
