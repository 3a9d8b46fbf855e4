import { useSearchParams } from 'react-router';
import { MarketingPage } from '../components/marketing-page';
import { PageHero } from '../components/page-hero';
import { type RequestField, RequestForm } from '../components/request-form';
import { SALES_EMAIL, STORE_COUNT } from '../content/facts';

const COMMON: readonly RequestField[] = [
  { name: 'name', label: 'Your name', required: true, autoComplete: 'name' },
  { name: 'email', label: 'Work email', type: 'email', required: true, autoComplete: 'email' },
  { name: 'company', label: 'Company', required: true, autoComplete: 'organization' },
];

const DPA_FIELDS: readonly RequestField[] = [
  ...COMMON,
  { name: 'country', label: 'Country of registration', required: true, autoComplete: 'country-name' },
  {
    name: 'signatory',
    label: 'Who signs the DPA (name and title)',
    required: true,
    hint: 'We send the agreement to this person for signature.',
  },
  { name: 'notes', label: 'Anything we should know', type: 'textarea' },
];

const SALES_FIELDS: readonly RequestField[] = [
  ...COMMON,
  {
    name: 'artists',
    label: 'Number of artists',
    type: 'select',
    options: ['1–10', '11–50', '51–200', 'More than 200'],
    required: true,
  },
  { name: 'message', label: 'How can we help?', type: 'textarea', required: true },
];

/** /contact-sales, and /contact-sales?type=dpa: a Data Processing Agreement request. */
export default function ContactSalesPage() {
  const [params] = useSearchParams();
  const isDpa = params.get('type') === 'dpa';
  return isDpa ? (
    <MarketingPage
      title="Request a DPA"
      description="Request Omni's Data Processing Agreement for your organisation."
    >
      <PageHero
        eyebrow="Trust"
        title="Request a Data Processing Agreement"
        lead="Our DPA sets out how we process personal data on your behalf. Tell us who you are and who signs, and we'll send it for signature."
      />
      <section className="container max-w-2xl py-16" aria-label="DPA request">
        <RequestForm
          title="DPA request"
          to={SALES_EMAIL}
          subject="DPA request"
          submitLabel="Request DPA"
          fields={DPA_FIELDS}
        />
      </section>
    </MarketingPage>
  ) : (
    <MarketingPage
      title="Contact sales"
      description="Talk to Omni sales about Enterprise plans for labels and distributors."
    >
      <PageHero
        eyebrow="Enterprise"
        title="Contact Sales"
        lead={`Enterprise plans for labels and distributors: sub-labels, approvals, roll-up analytics across ${STORE_COUNT} stores, and terms that fit your roster.`}
      />
      <section className="container max-w-2xl py-16" aria-label="Sales enquiry">
        <RequestForm
          title="Sales enquiry"
          to={SALES_EMAIL}
          subject="Omni Enterprise enquiry"
          submitLabel="Contact sales"
          fields={SALES_FIELDS}
        />
      </section>
    </MarketingPage>
  );
}
