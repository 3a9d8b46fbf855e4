// Pages this remote exposes to the shell (names must match shell/src/routes/route-table.ts).
export const exposes = {
  './DashboardPage': './src/pages/dashboard-page.tsx',
  './LoginPage': './src/pages/login-page.tsx',
  './SignupPage': './src/pages/signup-page.tsx',
  './ForgotPasswordPage': './src/pages/forgot-password-page.tsx',
  './ArtistUploadPage': './src/pages/artist-upload-page.tsx',
  './UploaderPage': './src/pages/uploader-page.tsx',
  './ContributorUploadPage': './src/pages/contributor-upload-page.tsx',
  './ReleasePage': './src/pages/release-page.tsx',
  './AccountPage': './src/pages/account-page.tsx',
  './ReleasesPage': './src/pages/releases-page.tsx',
  './AnalyticsPage': './src/pages/analytics-page.tsx',
  './PayoutsPage': './src/pages/payouts-page.tsx',
  './EarningsPage': './src/pages/earnings-page.tsx',
  './SplitsPage': './src/pages/splits-page.tsx',
  './SplitInvitationPage': './src/pages/split-invitation-page.tsx',
};
