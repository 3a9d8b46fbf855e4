// Serves the shell and the remotes' production builds. Remote manifests are named at run time through
// /app-config.json, so a remote can be redeployed without rebuilding the shell. Paths that are not a
// screen of the spec still get the shell (it renders the not-found page) but with HTTP status 404.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { appPath, type HttpFastPath, type Logger } from '@omni/platform';
import express, { type Express, type RequestHandler } from 'express';
import { acceptedEncodings, htmlEncoding } from './encoding';
import { htmlPagesFastPath } from './html-answers';
import { allowScripts, HtmlPages } from './html-pages';

export const REMOTES = ['marketing', 'dashboard', 'admin', 'finder'] as const;

type Remote = (typeof REMOTES)[number];

/**
 * Every screen of the spec, the remote that renders it and the modules of that remote it shows (the
 * shell's route table, frontends/shell/src/routes/route-table.ts, says the same;
 * tests/architecture/screens.test.ts holds them together). The modules name what the first response
 * preloads.
 */
const SCREENS: Record<Remote, Record<string, string[]>> = {
  marketing: {
    '/': ['./HomePage'],
    '/features': ['./FeaturesPage'],
    '/pricing': ['./PricingPage'],
    '/artists': ['./ArtistsPage'],
    '/labels': ['./LabelsPage'],
    '/managers': ['./ManagersPage'],
    '/security': ['./SecurityPage'],
    '/support': ['./SupportPage'],
    '/company': ['./CompanyPage'],
    '/demo': ['./DemoPage'],
    '/careers': ['./CareersPage'],
    '/press': ['./PressPage'],
    '/contact-sales': ['./ContactSalesPage'],
    '/music': ['./MusicPage'],
    '/videos': ['./VideosPage'],
    '/support/account': ['./SupportTopicPage'],
    '/support/distribution': ['./SupportTopicPage'],
    '/support/royalties': ['./SupportTopicPage'],
    '/support/compliance': ['./SupportTopicPage'],
    '/support/billing': ['./SupportTopicPage'],
  },
  dashboard: {
    '/app': ['./DashboardPage'],
    '/app/analytics': ['./AnalyticsPage'],
    '/app/payouts': ['./PayoutsPage'],
    '/app/earnings': ['./EarningsPage'],
    '/app/splits': ['./SplitsPage'],
    '/splits/invitation': ['./SplitInvitationPage'],
    '/login': ['./LoginPage'],
    '/signup': ['./SignupPage'],
    '/forgot-password': ['./ForgotPasswordPage'],
    '/uploader': ['./UploaderPage'],
    '/artist-upload': ['./ArtistUploadPage'],
    '/upload': ['./ContributorUploadPage'],
    '/releases': ['./ReleasesPage'],
    '/account': ['./AccountPage'],
  },
  admin: {
    // /admin opens its first section.
    '/admin': ['./AdminLayout', './UploadsPage'],
    '/admin/uploads': ['./AdminLayout', './UploadsPage'],
    '/admin/links': ['./AdminLayout', './LinksPage'],
    '/admin/moderation': ['./AdminLayout', './ModerationPage'],
    '/admin/releases': ['./AdminLayout', './ReleaseReviewPage'],
    '/admin/statements': ['./AdminLayout', './StatementsPage'],
  },
  finder: { '/missing-money-finder': ['./FinderPage'] },
};

/** A screen: the remote that renders it and the modules it exposes for it. */
export interface Screen {
  remote: Remote;
  exposes: string[];
}

const SCREEN_OF = new Map<string, Screen>(
  Object.entries(SCREENS).flatMap(([remote, paths]) =>
    Object.entries(paths).map(([path, exposes]) => [path, { remote: remote as Remote, exposes }] as const),
  ),
);
/** The path of every screen with a fixed path (screens under a prefix, like /release/:id, are not listed). */
export const SCREEN_PATHS: readonly string[] = [...SCREEN_OF.keys()];
const PREFIXES: [string, Screen][] = [['/release/', { remote: 'dashboard', exposes: ['./ReleasePage'] }]];

/** The screen at a path; undefined for a path that is no screen of the spec. */
export function screenOf(path: string): Screen | undefined {
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return SCREEN_OF.get(clean) ?? PREFIXES.find(([prefix]) => clean.startsWith(prefix))?.[1];
}

/** Which remote renders a screen; undefined for a path that is no screen of the spec. */
export function remoteOf(path: string): Remote | undefined {
  return screenOf(path)?.remote;
}

export function isScreen(path: string): boolean {
  return remoteOf(path) !== undefined;
}

export function defaultFrontendsDir(): string {
  return appPath('frontends');
}

const SUFFIX = { br: '.br', gzip: '.gz' } as const;
const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * Serves the .br/.gz written beside each asset at build time when the browser accepts it: the bytes a
 * visitor downloads before the first paint drop by about 70%, and nothing is compressed per request.
 */
function precompressed(dir: string): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const ext = /\.[a-z]+$/.exec(req.path)?.[0];
    const type = ext ? TYPES[ext] : undefined;
    const path = type ? decodedPath(req.path) : undefined;
    if (!type || !path || path.includes('..')) return next();
    const accepted = acceptedEncodings(req.headers['accept-encoding']);
    // The accepted forms in the client's order of preference (q-values; brotli first on a tie).
    for (const encoding of accepted) {
      const suffix = SUFFIX[encoding];
      if (!existsSync(join(dir, `${path}${suffix}`))) continue;
      const immutable = /\.[0-9a-f]{8,}\.(js|css)$/.test(path);
      // `root` keeps the dotfile check to the request's own path: the folder the build sits in may well
      // be under a dot-folder (~/.cache/omni). The headers go through sendFile so that they are set only
      // when the compressed file is really sent, never on a refusal (a 403 marked `br` reads as a
      // decoding failure in the browser).
      res.sendFile(
        `${path}${suffix}`,
        {
          root: dir,
          dotfiles: 'deny',
          headers: {
            'Content-Encoding': encoding,
            'Content-Type': type,
            Vary: 'Accept-Encoding',
            'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
          },
        },
        (err) => {
          if (!err) return;
          // Gone between the check and the send (a rebuild): the plain file may still be there.
          if ((err as { status?: number }).status === 404 && !res.headersSent) return next();
          next(err);
        },
      );
      return;
    }
    next();
  };
}

/** The request path as a file path, or undefined when its %-escapes do not decode. */
function decodedPath(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/**
 * Mounts the web app on the service's Express app, and returns the fast path that answers its screens'
 * documents before Express (html-answers.ts); `policy` is the Content-Security-Policy the service sends.
 */
export function mountFrontends(
  http: Express,
  frontendsDir: string,
  options: { logger?: Logger; policy?: string } = {},
): HttpFastPath {
  const { logger, policy } = options;
  const shellDist = join(frontendsDir, 'shell', 'dist');

  http.get('/app-config.json', (_req, res) => {
    res.set('Cache-Control', 'no-cache').json({
      remotes: Object.fromEntries(REMOTES.map((r) => [r, `/remotes/${r}/mf-manifest.json`])),
    });
  });

  const statics = (dir: string) =>
    express.static(dir, {
      index: false,
      fallthrough: true,
      setHeaders(res, file) {
        // Content-hashed chunks never change; entry files and manifests must be re-checked.
        const immutable = /\.[0-9a-f]{8,}\.(js|css|woff2?|png|svg|jpg)$/.test(file);
        res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  for (const remote of REMOTES) {
    const dist = join(frontendsDir, remote, 'dist');
    http.use(`/remotes/${remote}`, precompressed(dist), statics(dist));
  }
  http.use(precompressed(shellDist), statics(shellDist));

  // Composed per screen, and again after a rebuild (html-pages.ts).
  const pages = new HtmlPages(frontendsDir, REMOTES, screenOf, logger);
  http.get(/^\/(?!api\/|objects\/|realms\/|remotes\/).*/, (req, res) => {
    if (!pages.built()) {
      res
        .status(503)
        .type('text/plain')
        .send('The web app is not built yet. Run `npm run build:frontends` (npm start does it for you).');
      return;
    }
    const query = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
    const page = pages.pageFor(req.path, query);
    const encoding = htmlEncoding(req.headers['accept-encoding']);
    res
      .status(isScreen(req.path) ? 200 : 404)
      .set({ 'Cache-Control': 'no-cache', Vary: 'Accept-Encoding' })
      .type('html');
    if (encoding) res.set('Content-Encoding', encoding);
    const sent = res.getHeader('content-security-policy');
    if (typeof sent === 'string')
      res.setHeader('content-security-policy', allowScripts(sent, page.scriptHashes));
    res.send(encoding ? page[encoding] : page.raw);
  });
  return htmlPagesFastPath({ pages, isScreen, shellDist, policy });
}
