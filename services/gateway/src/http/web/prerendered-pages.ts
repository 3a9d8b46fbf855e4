// Pages a remote rendered to HTML at build time (frontends/<remote>/dist/prerender.json, written by
// frontends/rspack.prerender.mjs). The gateway puts such a page into the shell's index.html, so the
// first response already shows the page: the visitor reads it while the shell and the remote's code
// download, and the shell then swaps in the live page. A page's stylesheets are linked in the head
// (the prerendered markup needs them before it paints) and its code is preloaded.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const PrerenderFile = z.object({
  remote: z.string(),
  pages: z.array(
    z.object({
      path: z.string().startsWith('/'),
      query: z.record(z.string(), z.string()),
      title: z.string(),
      description: z.string(),
      html: z.string(),
      styles: z.array(z.string()),
      scripts: z.array(z.string()),
    }),
  ),
});
export type PrerenderedPage = z.infer<typeof PrerenderFile>['pages'][number];

/** The prerendered pages of every built remote; a remote without the file simply has none. */
export function loadPrerenderedPages(frontendsDir: string, remotes: readonly string[]): PrerenderedPage[] {
  const pages: PrerenderedPage[] = [];
  for (const remote of remotes) {
    const file = join(frontendsDir, remote, 'dist', 'prerender.json');
    if (!existsSync(file)) continue;
    // A malformed file is a build defect: fail at start-up, naming it, rather than serve broken pages.
    const parsed = PrerenderFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) throw new Error(`${file} is not a valid prerender file: ${parsed.error.message}`);
    pages.push(...parsed.data.pages);
  }
  return pages;
}

/**
 * The prerendered page for a request, if any. Only the query parameters a page names decide which
 * rendering fits (/contact-sales?type=dpa is another page than /contact-sales); others, like a
 * campaign's utm_source, do not change the page.
 */
export function findPrerendered(
  pages: readonly PrerenderedPage[],
  path: string,
  query: URLSearchParams,
): PrerenderedPage | undefined {
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return pages.find(
    (page) =>
      page.path === clean &&
      Object.entries(page.query).every(([name, value]) => (query.get(name) ?? '') === value),
  );
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Build-time HTML marks the current year (the footer's ©) so a build from an earlier year still says this one. */
const CURRENT_YEAR = /(<span data-current-year="">)\d{4}(<\/span>)/g;

/** The shell's page carrying a prerendered page: its title, description, styles, code hints and markup. */
export function composePrerendered(shellHtml: string, page: PrerenderedPage, year: number): string {
  const markup = page.html.replace(
    CURRENT_YEAR,
    (_match, open: string, close: string) => `${open}${year}${close}`,
  );
  const head =
    page.styles.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join('') +
    page.scripts.map((href) => `<link rel="preload" href="${escapeHtml(href)}" as="script">`).join('');
  return (
    shellHtml
      // Replacement functions, not strings: `$` in a page's text must stay as it is.
      .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(page.title)}</title>`)
      .replace(
        /<meta name="description"[^>]*>/,
        () => `<meta name="description" content="${escapeHtml(page.description)}">`,
      )
      .replace('</head>', () => `${head}</head>`)
      // Without JavaScript this page still reads: say what does need it instead of "Omni needs JavaScript".
      .replace(
        /(<noscript>\s*<p[^>]*>)[^<]*(<\/p>)/,
        (_match, open: string, close: string) =>
          `${open}You can read this page without JavaScript. Signing in, forms and uploads need it: please enable it in your browser.${close}`,
      )
      // The shell renders into #root and removes #omni-prerender when the live page is ready
      // (frontends/shell/src/components/prerendered-page.ts).
      .replace('<div id="root"></div>', () => `<div id="omni-prerender">${markup}</div><div id="root"></div>`)
  );
}
