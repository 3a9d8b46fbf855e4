import { Card, CardContent, CardHeader } from '@omni/ui';
import { MarketingPage } from '../components/marketing-page';
import { PageHero } from '../components/page-hero';
import { RequestForm } from '../components/request-form';
import { SALES_EMAIL } from '../content/facts';

const ROLES = ['Artist', 'Label', 'Manager', 'Distributor', 'Other'] as const;

export default function DemoPage() {
  return (
    <MarketingPage title="Book a demo" description="Book a live 30-minute walkthrough of Omni with our team.">
      {/* No recorded demo exists (the old 'Watch the demo' opened a YouTube search, issue 21 §3.14): a person
          shows Omni live instead. */}
      <PageHero
        eyebrow="Demo"
        title="See Omni in action"
        lead="Book a live walkthrough: we upload a release with you, follow it to the stores and answer your questions with your own catalog in mind."
      />
      <div className="container max-w-3xl py-16">
        <Card>
          <CardHeader>
            <h2 className="text-lg font-semibold leading-none tracking-tight">Book a live walkthrough</h2>
          </CardHeader>
          <CardContent>
            <RequestForm
              title="Book a demo"
              to={SALES_EMAIL}
              subject="Omni demo request"
              submitLabel="Request a demo"
              fields={[
                { name: 'name', label: 'Your name', required: true, autoComplete: 'name' },
                { name: 'email', label: 'Work email', type: 'email', required: true, autoComplete: 'email' },
                { name: 'role', label: 'You are', type: 'select', options: ROLES, required: true },
                {
                  name: 'date',
                  label: 'Preferred date',
                  type: 'date',
                  hint: 'We will confirm a time by email.',
                },
                { name: 'notes', label: 'What would you like to see?', type: 'textarea' },
              ]}
            />
          </CardContent>
        </Card>
      </div>
    </MarketingPage>
  );
}
