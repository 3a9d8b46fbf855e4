import { ComingSoonPage } from '@omni/ui';

export default function ModerationPage() {
  return <ComingSoonPage title="Moderation Queue" description="Approve or reject submitted assets." />;
}
