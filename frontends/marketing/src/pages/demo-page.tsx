import { Button, Card, CardContent, CardHeader } from '@omni/ui';
import { ExternalLink, PlayCircle } from 'lucide-react';
import { MarketingPage } from '../components/marketing-page';
import { PageHero } from '../components/page-hero';
import { RequestForm } from '../components/request-form';
import { DEMO_VIDEO_URL, SALES_EMAIL } from '../content/facts';

const ROLES = ['Artist', 'Label', 'Manager', 'Distributor', 'Other'] as const;

export default function DemoPage() {
  return (
    <MarketingPage
      title="Book a demo"
      description="Watch the Omni demo video or book a live 30-minute walkthrough with our team."
    >
      <PageHero
        eyebrow="Demo"
        title="See Omni in action"
        lead="Watch the short product tour now, or book a live walkthrough where we answer your questions with your own catalog in mind."
      />
      <div className="container grid gap-8 py-16 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <h2 className="text-lg font-semibold leading-none tracking-tight">Watch the demo</h2>
          </CardHeader>
          <CardContent className="space-y-4 text-muted-foreground">
            <PlayCircle className="h-12 w-12 text-primary" aria-hidden="true" />
            <p>
              A walk through uploading a release, choosing stores, setting up splits and following earnings on
              the dashboard.
            </p>
            <Button asChild>
              <a href={DEMO_VIDEO_URL} target="_blank" rel="noopener noreferrer">
                Watch the demo video
                <ExternalLink aria-hidden="true" />
                <span className="sr-only">(opens in a new tab)</span>
              </a>
            </Button>
          </CardContent>
        </Card>
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
