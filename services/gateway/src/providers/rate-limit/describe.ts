// Where the auth rate limits count under this configuration, for the start-up banner (the choice itself is
// made in http/identity/auth-rate-limits.ts).
import { adapterLine, type PlatformConfig } from '@omni/platform';

export const describeRateLimits = (config: PlatformConfig) =>
  adapterLine(
    'limits',
    'memory of this process (one gateway)',
    'documents store (shared by every gateway replica)',
    config.env.DOCUMENT_STORE === 'mongodb',
  );
