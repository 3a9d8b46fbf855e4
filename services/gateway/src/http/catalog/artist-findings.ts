// The rights check's findings as the artist's release page receives them: the stored words end with the
// evidence for the admin (the other artist's release, track and title), which the artist must not learn,
// so it is cut off and the match keeps only what the page needs (the decision, score, offset, speed). A
// duplicate of the artist's own recording keeps everything: that release is theirs.
import type { ReviewFinding } from '@omni/proto/api';

const FINGERPRINT_RULE = 'fingerprint-match';

export function artistFinding(f: ReviewFinding): ReviewFinding {
  if (f.rule !== FINGERPRINT_RULE || !f.match || f.match.decision === 'same-owner-duplicate') return f;
  return {
    ...f,
    message: f.message.replace(/ Evidence: .*$/s, ''),
    match: { ...f.match, releaseId: '', title: '' },
  };
}
