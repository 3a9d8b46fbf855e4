import { Card, CardContent, Spinner, useDocumentTitle } from '@omni/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertCircle, CheckCircle2 } from 'lucide-react';
import { useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { ContributorFiles } from '../components/contributor/contributor-files';
import { LinkSummary } from '../components/contributor/link-summary';
import { ReleaseForm } from '../components/contributor/release-form';
import { MagicLinkSignIn } from '../components/magic-link-sign-in';
import { SiteLogo } from '../components/site-logo';
import { type UploadedItem, UploadedList } from '../components/uploader/uploaded-list';
import { fetchLink } from '../lib/contributor-api';
import { errorMessage } from '../lib/error-message';
import '../styles.css';

/** Said before the contributor asks for a link: an outsider may have no account (identity makes one). */
const SIGN_IN_EXPLAINED =
  "We'll email you a sign-in link; if you have no Omni account, one is created for this email when you follow it. Files need no account; an audio release does.";

/** The gateway's text for an unknown token, shown at once when the address has no token at all. */
const NO_TOKEN = 'This upload link is not valid. Ask for a new one.';

function Refusal({ message }: { message: string }) {
  return (
    <Card className="border-destructive/40 bg-destructive/5">
      <CardContent className="flex items-start gap-3 p-6" role="alert" data-testid="link-refusal">
        <AlertCircle className="mt-0.5 h-5 w-5 shrink-0 text-destructive" aria-hidden="true" />
        <p className="font-medium text-destructive">{message}</p>
      </CardContent>
    </Card>
  );
}

function SubmittedNotice() {
  return (
    <Card className="border-emerald-500/40 bg-emerald-500/5">
      <CardContent className="flex items-start gap-3 p-6" role="status" data-testid="link-done">
        <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0 text-emerald-600" aria-hidden="true" />
        <p className="font-medium">
          Thank you: your submission is in. This link has no uses left; ask the person who sent it for a new
          one to send more.
        </p>
      </CardContent>
    </Card>
  );
}

function SubmittedReleases({ releases }: { releases: { code: string; path: string }[] }) {
  return (
    <div>
      <h3 className="mb-2 text-sm font-semibold">Releases submitted for review</h3>
      <ul className="space-y-1 text-sm" data-testid="submitted-releases">
        {releases.map((release) => (
          <li key={release.path} className="break-words">
            <span className="font-medium">{release.code}</span>{' '}
            <span className="font-mono text-xs text-muted-foreground">{release.path}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * /upload?token=…: the page an upload link opens. It says what the link allows (or why it cannot be used),
 * lets the contributor sign in by magic link back to this same address, upload files into a bucket and
 * folder, and submit an audio release. Every submission is one use of the link and waits for review.
 */
export default function ContributorUploadPage() {
  useDocumentTitle('Contributor Upload');
  const [params] = useSearchParams();
  const location = useLocation();
  const queryClient = useQueryClient();
  const token = params.get('token')?.trim() ?? '';
  const [uploaded, setUploaded] = useState<UploadedItem[]>([]);
  const [releases, setReleases] = useState<{ code: string; path: string }[]>([]);
  const link = useQuery({
    queryKey: ['contributor-link', token],
    queryFn: ({ signal }) => fetchLink(token, signal),
    enabled: token !== '',
    staleTime: 0,
  });
  // After a submission the uses left change (and the link may be used up now).
  const refreshLink = () => queryClient.invalidateQueries({ queryKey: ['contributor-link', token] });

  const refusal = !token ? NO_TOKEN : link.isError ? errorMessage(link.error, NO_TOKEN) : null;
  const usable = link.data && link.data.usesLeft > 0 && !refusal;
  // A link this contributor just used up refuses further use; for them that is a success, not an error.
  const submittedHere = uploaded.length > 0 || releases.length > 0;

  return (
    <div className="min-h-screen bg-muted/30">
      <header className="border-b bg-background">
        <div className="container flex h-14 items-center">
          <SiteLogo />
        </div>
      </header>
      <main id="main" className="container max-w-4xl space-y-6 py-10">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Contributor Upload</h1>
          <p className="mt-2 text-muted-foreground">Upload files with the link you were sent.</p>
        </div>
        {refusal && submittedHere ? (
          <SubmittedNotice />
        ) : refusal ? (
          <Refusal message={refusal} />
        ) : link.isPending ? (
          <Spinner label="Checking your upload link…" />
        ) : link.data ? (
          <LinkSummary link={link.data} />
        ) : null}
        {usable ? (
          <MagicLinkSignIn
            redirectTo={`${location.pathname}${location.search}`}
            description={SIGN_IN_EXPLAINED}
          />
        ) : null}
        {usable && link.data?.allowFile ? (
          <ContributorFiles
            token={token}
            onUploaded={(item) => {
              setUploaded((list) => [item, ...list.filter((old) => old.path !== item.path)]);
              void refreshLink();
            }}
          />
        ) : usable ? (
          <p className="text-sm text-muted-foreground">This link does not accept files.</p>
        ) : null}
        {/* Kept when the link is used up by the last submission: the contributor still needs the URLs. */}
        {uploaded.length > 0 || releases.length > 0 ? (
          <Card>
            <CardContent className="space-y-5 p-6">
              {uploaded.length > 0 ? <UploadedList items={uploaded} /> : null}
              {releases.length > 0 ? <SubmittedReleases releases={releases} /> : null}
            </CardContent>
          </Card>
        ) : null}
        {usable ? (
          <ReleaseForm
            token={token}
            onSubmitted={(release) => {
              setReleases((list) => [release, ...list]);
              void refreshLink();
            }}
          />
        ) : null}
      </main>
    </div>
  );
}
