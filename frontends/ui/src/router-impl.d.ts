// The real react-router, under the name the rspack config gives its files (see src/router.ts).
declare module '@omni/react-router-impl' {
  export * from 'react-router';
}
