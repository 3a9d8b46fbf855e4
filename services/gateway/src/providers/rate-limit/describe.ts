// Where the gateway's rate limits count under this configuration, for the start-up banner (the choice
// itself is made in counters.ts).
import { adapterLine, type PlatformConfig } from '@omni/platform';

export const describeRateLimits = (config: PlatformConfig) =>
  adapterLine(
    'limits',
    'memory of this process (one gateway)',
    'documents store (shared by every gateway replica)',
    config.env.DOCUMENT_STORE === 'mongodb',
  );
