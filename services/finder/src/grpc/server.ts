import type { UnaryImpl } from '@omni/platform';
import { finder } from '@omni/proto';

export function finderHandlers(): UnaryImpl<typeof finder.FinderServiceService> {
  return {};
}
