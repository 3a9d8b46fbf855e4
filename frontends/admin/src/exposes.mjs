// Pages this remote exposes to the shell (names must match shell/src/routes/route-table.ts).
export const exposes = {
  './AdminLayout': './src/components/admin-layout.tsx',
  './UploadsPage': './src/pages/uploads-page.tsx',
  './LinksPage': './src/pages/links-page.tsx',
  './ModerationPage': './src/pages/moderation-page.tsx',
  './ReleaseReviewPage': './src/pages/release-review-page.tsx',
  './StatementsPage': './src/pages/statements-page.tsx',
};
