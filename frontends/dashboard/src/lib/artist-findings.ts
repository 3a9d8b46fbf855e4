// The rights check's findings as the artist reads them: the stored words end with the evidence for the admin
// (the other artist's release, track and title), which the artist is not shown. A duplicate of the
// artist's own recording keeps it: that release is theirs.
import type { ReviewFinding } from '@omni/proto/api';

export function withoutOthersEvidence(f: ReviewFinding): ReviewFinding {
  if (f.rule !== 'fingerprint-match' || f.match?.decision === 'same-owner-duplicate') return f;
  const { match: _evidence, ...rest } = f;
  return { ...rest, message: f.message.replace(/ Evidence: .*$/s, '') };
}
