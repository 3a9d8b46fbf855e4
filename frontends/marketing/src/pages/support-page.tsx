import { MarketingPage } from '../components/marketing-page';
import { SupportCentre } from '../components/support-centre';
import { SUPPORT_REPLY } from '../content/facts';

export default function SupportPage() {
  return (
    <MarketingPage
      title="Support"
      description={`Omni help centre: guides on accounts, distribution, royalties, compliance and billing, and a ticket form answered within ${SUPPORT_REPLY}.`}
    >
      <SupportCentre />
    </MarketingPage>
  );
}
