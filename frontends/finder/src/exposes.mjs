// Pages this remote exposes to the shell (names must match shell/src/routes/route-table.ts).
export const exposes = {
  './FinderPage': './src/pages/finder-page.tsx',
};
