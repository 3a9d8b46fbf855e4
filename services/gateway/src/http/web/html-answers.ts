// The web app's HTML documents answered before Express (platform http/fast-path.ts): the pages are
// composed and compressed once (html-pages.ts), so routing each read through Express and res.send
// (which hashes the body for its ETag on every request) cost several times what writing the ready bytes
// does. Every answer here is the one the Express route in frontends.ts gives, header for header and
// byte for byte (tests/integration/html-fast-path.test.ts compares them): same ETag (Express's weak
// one, from `etag`), same 304 rule (`fresh`, which Express's req.fresh uses), same encoding choice.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { HttpFastPath, ReadyResponse } from '@omni/platform';
import etag from 'etag';
import fresh from 'fresh';
import { htmlEncoding } from './encoding';
import { allowScripts, type HtmlPage, type HtmlPages } from './html-pages';

/** A page's answers, per encoding: the document (GET and HEAD) and the 304 for a client that holds it. */
interface PageAnswers {
  br: Variant;
  gzip: Variant;
  identity: Variant;
}
interface Variant {
  ok: ReadyResponse;
  notModified: ReadyResponse;
  etag: string;
}

/** The headers of the Express route's 200, in Express's own spelling of the ETag. */
function variant(body: Buffer, encoding: 'br' | 'gzip' | undefined, policy: string | undefined): Variant {
  const tag = etag(body, { weak: true });
  const common: Record<string, string> = { 'Cache-Control': 'no-cache', Vary: 'Accept-Encoding' };
  if (encoding) common['Content-Encoding'] = encoding;
  // Lower case: it replaces the platform's own policy header (the dispatcher's keys are lower case).
  if (policy !== undefined) common['content-security-policy'] = policy;
  return {
    etag: tag,
    ok: {
      status: 200,
      headers: {
        ...common,
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Length': body.length,
        ETag: tag,
      },
      body,
    },
    // As res.send strips them for a 304: no Content-Type, no Content-Length, no body.
    notModified: { status: 304, headers: { ...common, ETag: tag } },
  };
}

function answersFor(page: HtmlPage, basePolicy: string | undefined): PageAnswers {
  const policy = basePolicy === undefined ? undefined : allowScripts(basePolicy, page.scriptHashes);
  return {
    br: variant(page.br, 'br', policy),
    gzip: variant(page.gzip, 'gzip', policy),
    identity: variant(page.raw, undefined, policy),
  };
}

/** Paths the route in frontends.ts answers; the same exclusions as its pattern. */
const PAGE_URL = /^\/(?!api\/|objects\/|realms\/|remotes\/)[^?]*/;

/** How many URLs' answers are kept at once (the screens and their common queries fit many times over). */
const URLS_KEPT = 256;

/**
 * Answers GET and HEAD of every screen's document (status 200) from answers built once per composed
 * page. Anything else goes on to Express: paths that are no screen (the 404 page, logged there),
 * paths a static file of the shell's build could answer, a web app not built yet.
 */
export function htmlPagesFastPath(options: {
  pages: HtmlPages;
  isScreen: (path: string) => boolean;
  /** The shell's build folder, whose files Express serves before any page. */
  shellDist: string;
  /** The service's Content-Security-Policy, to which each page's script hashes are added. */
  policy: string | undefined;
}): HttpFastPath {
  const { pages, isScreen, shellDist, policy } = options;
  const answers = new WeakMap<HtmlPage, PageAnswers>();
  // Whether the static middleware could answer a path's first segment (a file or folder of that name in
  // the shell's build): checked once per segment and build, since screen paths are a short list.
  const shadowed = new Map<string, boolean>();
  // A URL's answers depend on nothing but the URL and the build, so the few URLs read over and over (/music,
  // /videos, /) skip matching the screen, parsing the query and composing the key on every read. Bounded:
  // query strings are the client's to vary, so a full map starts afresh rather than grow.
  const byUrl = new Map<string, PageAnswers>();
  let build: unknown;

  const answersForUrl = (url: string): PageAnswers | undefined => {
    const match = PAGE_URL.exec(url);
    if (!match) return undefined;
    const path = match[0];
    // `.` and `%` could name (or encode the name of) a static file; `//` and `#` are parsed differently.
    if (/[.%#]/.test(path) || path.startsWith('//') || !isScreen(path)) return undefined;
    const segment = path.split('/', 2)[1] ?? '';
    let isShadowed = shadowed.get(segment);
    if (isShadowed === undefined) {
      isShadowed = segment !== '' && existsSync(join(shellDist, segment));
      shadowed.set(segment, isShadowed);
    }
    if (isShadowed) return undefined;
    // The query as the route reads it (originalUrl.split('?')[1]).
    const query = url.length > path.length ? (url.split('?')[1] ?? '') : '';
    const page = pages.pageFor(path, new URLSearchParams(query));
    let ready = answers.get(page);
    if (!ready) {
      ready = answersFor(page, policy);
      answers.set(page, ready);
    }
    return ready;
  };

  return (req) => {
    const url = req.url ?? '';
    if (url.startsWith('/api/') || !pages.built()) return undefined;
    if (build !== pages.generation()) {
      build = pages.generation();
      shadowed.clear();
      byUrl.clear();
    }
    let ready = byUrl.get(url);
    if (!ready) {
      ready = answersForUrl(url);
      if (!ready) return undefined;
      if (byUrl.size >= URLS_KEPT) byUrl.clear();
      byUrl.set(url, ready);
    }
    const chosen = ready[htmlEncoding(req.headers['accept-encoding']) ?? 'identity'];
    const conditional =
      req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined;
    return conditional && fresh(req.headers, { etag: chosen.etag }) ? chosen.notModified : chosen.ok;
  };
}
