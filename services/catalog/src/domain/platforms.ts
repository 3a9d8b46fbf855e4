// The platform keys are a contract (proto/api/platforms.ts): catalog validates against them, delivery's
// store registry covers each. Re-exported here so catalog's code reads them from its domain.
export {
  PLATFORM_KEYS,
  PLATFORMS,
  type PlatformInfo,
  PRESELECTED_KEYS,
  resolveStores,
} from '@omni/proto/api';
