import { Badge, Card, CardDescription, CardHeader, CardTitle, cn, Input } from '@omni/ui';
import { BookOpen, CreditCard, Scale, Search, Upload, UserRound, Wallet } from 'lucide-react';
import { useMemo, useRef, useState } from 'react';
import { STORE_COUNT, SUPPORT_REPLY, UPTIME_TARGET } from '../content/facts';
import {
  docsOf,
  SUPPORT_CATEGORIES,
  SUPPORT_DOCS,
  type SupportCategoryId,
  searchDocs,
} from '../content/support-docs';
import { TicketForm } from './ticket-form';

const ICONS: Record<SupportCategoryId, typeof UserRound> = {
  account: UserRound,
  distribution: Upload,
  royalties: Wallet,
  compliance: Scale,
  billing: CreditCard,
};

/**
 * The help centre (spec §2, §4): search filters the documents as you type; a category card shows
 * that category's documents, opens its first one and scrolls to the reader.
 */
export function SupportCentre({ initialCategory }: { initialCategory?: SupportCategoryId }) {
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState<SupportCategoryId | undefined>(initialCategory);
  const [selectedId, setSelectedId] = useState<string | undefined>(
    initialCategory ? docsOf(initialCategory)[0]?.id : undefined,
  );
  const docsRef = useRef<HTMLElement>(null);
  const readerRef = useRef<HTMLHeadingElement>(null);

  const docs = useMemo(
    () => (query.trim() ? searchDocs(query) : category ? docsOf(category) : SUPPORT_DOCS),
    [query, category],
  );
  const selected = docs.find((doc) => doc.id === selectedId) ?? docs[0];

  const chooseCategory = (id: SupportCategoryId) => {
    setQuery('');
    setCategory(id);
    setSelectedId(docsOf(id)[0]?.id);
    const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    docsRef.current?.scrollIntoView({ behavior: smooth ? 'smooth' : 'auto', block: 'start' });
  };

  const openDoc = (id: string) => {
    setSelectedId(id);
    // Move focus to the article so keyboard and screen-reader users land on what they chose.
    requestAnimationFrame(() => readerRef.current?.focus());
  };

  const categoryLabel = SUPPORT_CATEGORIES.find((c) => c.id === category)?.label;

  return (
    <>
      <section
        aria-labelledby="page-title"
        className="border-b bg-gradient-to-b from-primary/10 to-background"
      >
        <div className="container py-16 text-center sm:py-20">
          <h1 id="page-title" className="text-4xl font-extrabold tracking-tight sm:text-5xl">
            How can we help?
          </h1>
          <p className="mx-auto mt-4 max-w-xl text-muted-foreground">
            Guides for every part of Omni. Our team replies to tickets within {SUPPORT_REPLY}, and we target{' '}
            {UPTIME_TARGET} uptime.
          </p>
          <search className="relative mx-auto mt-8 block max-w-xl">
            <label htmlFor="support-search" className="sr-only">
              Search help articles
            </label>
            <Search
              className="pointer-events-none absolute left-3 top-3 h-4 w-4 text-muted-foreground"
              aria-hidden="true"
            />
            <Input
              id="support-search"
              type="search"
              placeholder="Search help articles, e.g. payout"
              className="h-11 pl-9"
              value={query}
              aria-controls="support-doc-list"
              onChange={(event) => setQuery(event.target.value)}
            />
          </search>
        </div>
      </section>

      <section aria-labelledby="categories-title" className="container py-12">
        <h2 id="categories-title" className="text-2xl font-bold tracking-tight">
          Browse by category
        </h2>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          {SUPPORT_CATEGORIES.map(({ id, label, blurb }) => {
            const Icon = ICONS[id];
            const active = category === id && !query.trim();
            return (
              <li key={id}>
                <button
                  type="button"
                  onClick={() => chooseCategory(id)}
                  aria-pressed={active}
                  className="block h-full w-full rounded-lg text-left focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <Card
                    className={cn(
                      'h-full transition-colors hover:border-primary',
                      active && 'border-primary bg-primary/5',
                    )}
                  >
                    <CardHeader>
                      <Icon className="h-6 w-6 text-primary" aria-hidden="true" />
                      <CardTitle className="text-base">{label}</CardTitle>
                      <CardDescription>{blurb}</CardDescription>
                    </CardHeader>
                  </Card>
                </button>
              </li>
            );
          })}
        </ul>
      </section>

      <section ref={docsRef} aria-labelledby="docs-title" className="container scroll-mt-32 pb-16">
        <h2 id="docs-title" className="text-2xl font-bold tracking-tight">
          {query.trim() ? 'Search results' : categoryLabel ? `${categoryLabel} articles` : 'All articles'}
        </h2>
        <p className="mt-1 text-sm text-muted-foreground" role="status" data-testid="doc-count">
          {docs.length === 1 ? '1 article' : `${docs.length} articles`}
          {query.trim() ? ` match “${query.trim()}”` : ''}
        </p>
        <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
          <ul id="support-doc-list" aria-label="Articles" className="space-y-2" data-testid="doc-list">
            {docs.map((doc) => (
              <li key={doc.id}>
                <button
                  type="button"
                  onClick={() => openDoc(doc.id)}
                  aria-current={doc.id === selected?.id ? 'true' : undefined}
                  className={cn(
                    'w-full rounded-md border p-3 text-left transition-colors hover:border-primary focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                    doc.id === selected?.id && 'border-primary bg-primary/5',
                  )}
                >
                  <span className="flex flex-wrap items-center gap-2 font-medium">
                    {doc.title}
                    {doc.comingSoon ? (
                      <Badge variant="outline" className="text-xs font-medium">
                        Coming soon
                      </Badge>
                    ) : null}
                  </span>
                  <span className="block text-sm text-muted-foreground">{doc.summary}</span>
                </button>
              </li>
            ))}
          </ul>
          {selected ? (
            <article aria-labelledby="doc-title" className="rounded-lg border p-6" data-testid="doc-reader">
              <p className="flex items-center gap-2 text-sm font-medium text-primary">
                <BookOpen className="h-4 w-4" aria-hidden="true" />
                {SUPPORT_CATEGORIES.find((c) => c.id === selected.category)?.label}
              </p>
              <h3
                id="doc-title"
                ref={readerRef}
                tabIndex={-1}
                className="mt-2 text-2xl font-semibold focus:outline-none"
              >
                {selected.title}
              </h3>
              {selected.comingSoon ? (
                <p
                  className="mt-4 rounded-md border border-amber-500/50 bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950/30 dark:text-amber-200"
                  data-testid="doc-coming-soon"
                >
                  {selected.comingSoon}
                </p>
              ) : null}
              <div className="mt-4 space-y-4 text-muted-foreground">
                {selected.body.map((paragraph) => (
                  <p key={paragraph}>{paragraph}</p>
                ))}
              </div>
            </article>
          ) : (
            <p className="rounded-lg border border-dashed p-6 text-muted-foreground">
              No articles match your search. Try another word, or open a ticket below.
            </p>
          )}
        </div>
      </section>

      <section aria-labelledby="ticket-title" className="bg-muted/40">
        <div className="container grid gap-8 py-16 lg:grid-cols-2">
          <div>
            <h2 id="ticket-title" className="text-2xl font-bold tracking-tight">
              Open a ticket
            </h2>
            <p className="mt-2 text-muted-foreground">
              Can’t find your answer? Tell us what’s happening and we’ll reply within {SUPPORT_REPLY}.
              Questions about a delivery? Mention the release title; we deliver to {STORE_COUNT} stores and
              can check each one.
            </p>
          </div>
          <TicketForm />
        </div>
      </section>
    </>
  );
}
