import type { unmatchedGroup } from '@omni/proto/api';
import type * as z from 'zod/mini';
import { formatCount, formatUsd } from '../../lib/statement-formats';

export type UnmatchedGroup = z.infer<typeof unmatchedGroup>;

/** "ISRC GBXYZ2400001", "UPC 5012345678900", or what stands for lines with neither. */
export function identifierLabel(group: UnmatchedGroup): string {
  if (group.kind === 'isrc') return `ISRC ${group.identifier}`;
  if (group.kind === 'upc') return `UPC ${group.identifier}`;
  return group.identifier ? group.identifier : 'lines with no ISRC or UPC';
}

/** What the store calls it: "Title – Artist", either alone when the other is missing. */
export function storeName(group: UnmatchedGroup): string {
  const parts = [group.title.trim(), group.artist.trim()].filter(Boolean);
  return parts.length > 0 ? parts.join(' – ') : 'No title or artist given';
}

/** One sentence for the dialogs: which lines, what they are worth, what the store calls them. */
export function describeGroup(group: UnmatchedGroup): string {
  const lines = `${formatCount(group.lines)} line${group.lines === 1 ? '' : 's'}`;
  return `${lines} (${formatUsd(group.amount)}) that stores report as “${storeName(group)}” under ${identifierLabel(group)}.`;
}
