import { Button, Card, CardDescription, CardHeader, CardTitle, useDocumentTitle } from '@omni/ui';
import { BarChart3, Globe2, Headphones, Layers, Users, Wallet } from 'lucide-react';
import { Link } from 'react-router';
import { SiteLayout } from '../components/site-layout';

const FEATURES = [
  {
    title: 'Core Feature',
    text: 'Catalog management for singles, albums, compilations and artist profiles.',
    Icon: Layers,
  },
  { title: 'Analytics', text: 'Release data and streaming analytics across every store.', Icon: BarChart3 },
  { title: 'Teamwork', text: 'Invite collaborators and give each the right role.', Icon: Users },
  { title: 'Distribution', text: 'Direct delivery to 150+ streaming platforms.', Icon: Globe2 },
  {
    title: 'Monetization',
    text: 'Smart splits, automated payouts and recoupment. 100% of royalties to artists.',
    Icon: Wallet,
  },
  { title: 'Support', text: '24/7 support, contract templates and copyright services.', Icon: Headphones },
] as const;

export default function HomePage() {
  useDocumentTitle(undefined);
  return (
    <SiteLayout>
      <section aria-labelledby="hero-title" className="bg-gradient-to-b from-primary/10 to-background">
        <div className="container flex flex-col items-center py-24 text-center">
          <h1 id="hero-title" className="max-w-3xl text-4xl font-extrabold tracking-tight sm:text-6xl">
            From the block to the blockchain
          </h1>
          <p className="mt-6 max-w-2xl text-lg text-muted-foreground">
            Distribute your music to 150+ stores, protect your rights, and keep 100% of your royalties. Built
            for independent artists, labels and managers.
          </p>
          <div className="mt-10 flex flex-wrap justify-center gap-3">
            <Button asChild size="lg">
              <Link to="/signup">Launch your release</Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link to="/pricing">View Pricing</Link>
            </Button>
          </div>
        </div>
      </section>
      <section aria-labelledby="features-title" className="container py-20">
        <h2 id="features-title" className="text-center text-3xl font-bold tracking-tight">
          Everything you need to release music
        </h2>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map(({ title, text, Icon }) => (
            <li key={title}>
              <Card className="h-full">
                <CardHeader>
                  <Icon className="h-8 w-8 text-primary" aria-hidden="true" />
                  <CardTitle>{title}</CardTitle>
                  <CardDescription>{text}</CardDescription>
                </CardHeader>
              </Card>
            </li>
          ))}
        </ul>
      </section>
    </SiteLayout>
  );
}
