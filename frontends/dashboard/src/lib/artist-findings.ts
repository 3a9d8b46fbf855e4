// The rights check's findings as the artist's page shows them. The gateway decides what the artist may
// learn (services/gateway/src/http/catalog/artist-findings.ts): for another artist's recording it cuts the
// evidence from the words and blanks the matched release and title. Here only the empty evidence that
// leaves is dropped, so no half-empty "Matched release …" line is drawn; a duplicate of the artist's own
// recording keeps its evidence (that release is theirs).
import type { ReviewFinding } from '@omni/proto/api';

export function withoutOthersEvidence(f: ReviewFinding): ReviewFinding {
  if (f.match?.releaseId !== '') return f;
  const { match: _withheld, ...rest } = f;
  return rest;
}
