import type { AssetKind } from '@omni/proto/api';
import { FileText, Film, Image, Music } from 'lucide-react';

const ICONS = { music: Music, video: Film, image: Image, document: FileText } as const;
const NAMES: Record<AssetKind, string> = {
  music: 'Music',
  video: 'Video',
  image: 'Image',
  document: 'Document',
};

/** The moderation row's type icon, named for screen readers. */
export function AssetKindIcon({ kind }: { kind: AssetKind }) {
  const Icon = ICONS[kind];
  return (
    <span title={NAMES[kind]} className="inline-flex">
      <Icon className="h-5 w-5 text-muted-foreground" role="img" aria-label={NAMES[kind]} />
    </span>
  );
}
