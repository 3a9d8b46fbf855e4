// Pages this remote exposes to the shell (names must match shell/src/routes/route-table.ts).
export const exposes = {
  './HomePage': './src/pages/home-page.tsx',
  './FeaturesPage': './src/pages/features-page.tsx',
  './PricingPage': './src/pages/pricing-page.tsx',
  './ArtistsPage': './src/pages/artists-page.tsx',
  './LabelsPage': './src/pages/labels-page.tsx',
  './ManagersPage': './src/pages/managers-page.tsx',
  './SecurityPage': './src/pages/security-page.tsx',
  './SupportPage': './src/pages/support-page.tsx',
  './SupportTopicPage': './src/pages/support-topic-page.tsx',
  './CompanyPage': './src/pages/company-page.tsx',
  './MusicPage': './src/pages/music-page.tsx',
  './VideosPage': './src/pages/videos-page.tsx',
  './DemoPage': './src/pages/demo-page.tsx',
  './CareersPage': './src/pages/careers-page.tsx',
  './PressPage': './src/pages/press-page.tsx',
  './ContactSalesPage': './src/pages/contact-sales-page.tsx',
};
