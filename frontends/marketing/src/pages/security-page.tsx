import { Button } from '@omni/ui';
import { Fingerprint, KeyRound, Link2, ServerCog, ShieldCheck, UserCheck } from 'lucide-react';
import { Link } from 'react-router';
import { CallToAction } from '../components/call-to-action';
import { FeatureList } from '../components/feature-list';
import { MarketingPage } from '../components/marketing-page';
import { PageHero } from '../components/page-hero';
import { KYC_WINDOW, UPTIME_TARGET } from '../content/facts';

const SECURITY = [
  {
    title: 'Passwords done properly',
    text: 'Passwords are never stored, only salted scrypt hashes that are slow to guess. You can also sign in with Google or a one-time email link.',
    Icon: KeyRound,
  },
  {
    title: 'Signed upload links',
    text: 'Files reach our storage only through short-lived signed links, and contributor links can be revoked at any time.',
    Icon: Link2,
  },
  {
    title: 'Availability',
    text: `We target ${UPTIME_TARGET} uptime, and every acknowledged write survives a restart.`,
    Icon: ServerCog,
  },
] as const;

const COMPLIANCE = [
  {
    title: 'Identity verification',
    text: `KYC checks before your first payout, usually completed in ${KYC_WINDOW}.`,
    Icon: UserCheck,
    comingSoon: true,
  },
  {
    title: 'Rights protection',
    text: 'Audio fingerprinting and blockchain verification record who owns what, so disputes have evidence.',
    Icon: Fingerprint,
    comingSoon: true,
  },
  {
    title: 'Data protection',
    text: 'We process personal data only to run your account and pay you. Businesses can sign our Data Processing Agreement.',
    Icon: ShieldCheck,
  },
] as const;

export default function SecurityPage() {
  return (
    <MarketingPage
      title="Security and trust"
      description={`How Omni protects your account, your files and your rights: hashed passwords, signed upload links, KYC, rights protection, a ${UPTIME_TARGET} uptime target and a DPA on request.`}
    >
      <PageHero
        eyebrow="Trust"
        title="Your catalog is safe with us"
        lead="Security and compliance are built into every step, from sign-in to payout."
      >
        <Button asChild size="lg">
          <Link to="/contact-sales?type=dpa">Request DPA</Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to="/support/compliance">Compliance help</Link>
        </Button>
      </PageHero>
      <FeatureList id="security-title" title="Security" features={SECURITY} />
      <FeatureList id="compliance-title" title="Compliance" features={COMPLIANCE} />
      <CallToAction
        id="dpa-title"
        title="Need a Data Processing Agreement?"
        text="Tell us about your organisation and we'll send our DPA for signature."
      >
        <Button asChild size="lg" variant="secondary">
          <Link to="/contact-sales?type=dpa">Request DPA</Link>
        </Button>
      </CallToAction>
    </MarketingPage>
  );
}
