// FinderService over gRPC. The contract (proto/omni/finder/v1) lands first; the scan behind each call lands
// with issue #13's finder service, which replaces these refusals.
import { GrpcError, GrpcStatus, type UnaryImpl } from '@omni/platform';
import type { finder } from '@omni/proto';

const notYet = async (): Promise<never> => {
  throw new GrpcError(GrpcStatus.UNIMPLEMENTED, 'The Missing Money Finder is not available yet.');
};

export function finderHandlers(): UnaryImpl<typeof finder.FinderServiceService> {
  return { startScan: notYet, getLatestScan: notYet, exportScan: notYet, importPlays: notYet };
}
