import { ComingSoonPage } from '@omni/ui';

export default function LinksPage() {
  return (
    <ComingSoonPage
      title="Contributor Links"
      description="Issue and revoke upload links for external contributors."
    />
  );
}
