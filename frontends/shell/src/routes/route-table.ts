/**
 * The remotes the shell loads. (Defined here, with no imports, so the gateway's test of its own screen
 * table, tests/architecture/screens.test.ts, can read this file without the browser code behind it.)
 */
export type RemoteName = 'marketing' | 'dashboard' | 'admin' | 'finder';

/** A top-level route rendered by a page a remote exposes. */
export interface RemoteRoute {
  path: string;
  remote: RemoteName;
  expose: string;
}

/**
 * Every screen of the spec (section 2) and the remote that owns it. The remotes' exposes must carry
 * these names (frontends/<remote>/src/exposes.mjs); shell/test/route-table.test.ts checks they match.
 */
export const remoteRoutes: readonly RemoteRoute[] = [
  // marketing: public site
  { path: '/', remote: 'marketing', expose: './HomePage' },
  { path: '/features', remote: 'marketing', expose: './FeaturesPage' },
  { path: '/pricing', remote: 'marketing', expose: './PricingPage' },
  { path: '/artists', remote: 'marketing', expose: './ArtistsPage' },
  { path: '/labels', remote: 'marketing', expose: './LabelsPage' },
  { path: '/managers', remote: 'marketing', expose: './ManagersPage' },
  { path: '/security', remote: 'marketing', expose: './SecurityPage' },
  { path: '/support', remote: 'marketing', expose: './SupportPage' },
  { path: '/support/account', remote: 'marketing', expose: './SupportTopicPage' },
  { path: '/support/distribution', remote: 'marketing', expose: './SupportTopicPage' },
  { path: '/support/royalties', remote: 'marketing', expose: './SupportTopicPage' },
  { path: '/support/compliance', remote: 'marketing', expose: './SupportTopicPage' },
  { path: '/support/billing', remote: 'marketing', expose: './SupportTopicPage' },
  { path: '/company', remote: 'marketing', expose: './CompanyPage' },
  { path: '/music', remote: 'marketing', expose: './MusicPage' },
  { path: '/videos', remote: 'marketing', expose: './VideosPage' },
  { path: '/demo', remote: 'marketing', expose: './DemoPage' },
  { path: '/careers', remote: 'marketing', expose: './CareersPage' },
  { path: '/press', remote: 'marketing', expose: './PressPage' },
  { path: '/contact-sales', remote: 'marketing', expose: './ContactSalesPage' },
  // dashboard: signed-in artist area and auth
  { path: '/app', remote: 'dashboard', expose: './DashboardPage' },
  { path: '/app/analytics', remote: 'dashboard', expose: './AnalyticsPage' },
  { path: '/app/payouts', remote: 'dashboard', expose: './PayoutsPage' },
  { path: '/app/earnings', remote: 'dashboard', expose: './EarningsPage' },
  { path: '/app/splits', remote: 'dashboard', expose: './SplitsPage' },
  // The page a split invitation's mail links to (?token=…).
  { path: '/splits/invitation', remote: 'dashboard', expose: './SplitInvitationPage' },
  { path: '/login', remote: 'dashboard', expose: './LoginPage' },
  { path: '/signup', remote: 'dashboard', expose: './SignupPage' },
  { path: '/forgot-password', remote: 'dashboard', expose: './ForgotPasswordPage' },
  { path: '/artist-upload', remote: 'dashboard', expose: './ArtistUploadPage' },
  { path: '/uploader', remote: 'dashboard', expose: './UploaderPage' },
  { path: '/upload', remote: 'dashboard', expose: './ContributorUploadPage' },
  { path: '/release/:id', remote: 'dashboard', expose: './ReleasePage' },
  { path: '/account', remote: 'dashboard', expose: './AccountPage' },
  { path: '/releases', remote: 'dashboard', expose: './ReleasesPage' },
  // finder
  { path: '/missing-money-finder', remote: 'finder', expose: './FinderPage' },
];

/** /admin: the admin remote's layout (sidebar, 'OMNI CMS') wraps its children via <Outlet/>. */
export const adminLayout = { remote: 'admin', expose: './AdminLayout' } as const;
export const adminChildren: readonly RemoteRoute[] = [
  { path: 'uploads', remote: 'admin', expose: './UploadsPage' },
  { path: 'links', remote: 'admin', expose: './LinksPage' },
  { path: 'moderation', remote: 'admin', expose: './ModerationPage' },
  { path: 'releases', remote: 'admin', expose: './ReleaseReviewPage' },
  { path: 'statements', remote: 'admin', expose: './StatementsPage' },
];
