// The HTML document for each screen: the shell's index.html with hints for the remote that renders the
// screen and, where the remote rendered the page at build time, the page itself. Composed and compressed
// once per variant, and composed afresh when a build replaces index.html or a prerender file: a
// `npm run build:frontends` under a running platform must not leave it serving a page whose scripts
// the build deleted.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { Logger } from '@omni/platform';
import {
  composePrerendered,
  findPrerendered,
  loadPrerenderedPages,
  type PrerenderedPage,
} from './prerendered-pages';

/** An HTML page as sent: raw and compressed once, since a prerendered page is tens of kilobytes. */
export interface HtmlPage {
  raw: Buffer;
  br: Buffer;
  gzip: Buffer;
  /** CSP sources ('sha256-…') for the page's own inline scripts, and only those. */
  scriptHashes: string[];
}

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g;

/** The hash of each inline script, as a Content-Security-Policy source. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)].map(
    ([, body]) =>
      `'sha256-${createHash('sha256')
        .update(body ?? '')
        .digest('base64')}'`,
  );
}

/**
 * The policy with these scripts allowed: helmet's `script-src 'self'` forbids inline scripts, and the
 * shell's page has one that must run before the first paint (index.html says why). Allowing it by hash
 * allows nothing else, where 'unsafe-inline' would allow any injected script.
 */
export function allowScripts(policy: string, hashes: readonly string[]): string {
  if (hashes.length === 0) return policy;
  const directives = policy.split(';');
  const at = directives.findIndex((d) => d.trim().startsWith('script-src '));
  if (at === -1) return [...directives, `script-src 'self' ${hashes.join(' ')}`].join(';');
  directives[at] = `${directives[at]} ${hashes.join(' ')}`;
  return directives.join(';');
}

function htmlPage(html: string): HtmlPage {
  const raw = Buffer.from(html);
  return { raw, br: brotliCompressSync(raw), gzip: gzipSync(raw), scriptHashes: inlineScriptHashes(html) };
}

/** How often the build's files are checked for a new build, at most. */
const CHECK_EVERY_MS = 1000;

export class HtmlPages {
  private readonly indexFile: string;
  /** The files a build replaces; their modification times tell when to compose afresh. */
  private readonly watched: string[];
  private signature: string | undefined;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private shellHtml: string | undefined;
  private prerendered: PrerenderedPage[] = [];
  private readonly cache = new Map<string, HtmlPage>();
  private year = 0;

  constructor(
    private readonly frontendsDir: string,
    private readonly remotes: readonly string[],
    private readonly remoteOf: (path: string) => string | undefined,
    private readonly logger?: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.indexFile = join(frontendsDir, 'shell', 'dist', 'index.html');
    this.watched = [
      this.indexFile,
      ...remotes.map((remote) => join(frontendsDir, remote, 'dist', 'prerender.json')),
    ];
  }

  /** False while the web app has not been built. */
  built(): boolean {
    this.refresh();
    return this.shellHtml !== undefined;
  }

  /** The document for a request's path and query. Call built() first. */
  pageFor(path: string, query: URLSearchParams): HtmlPage {
    this.refresh();
    const shellHtml = this.shellHtml ?? '';
    const remote = this.remoteOf(path);
    const prerender = remote ? findPrerendered(this.prerendered, path, query) : undefined;
    const key = prerender ? `${prerender.path}?${new URLSearchParams(prerender.query)}` : (remote ?? '');
    let page = this.cache.get(key);
    if (!page) {
      // The remote that owns a screen is known here, so the page can start fetching its manifest and
      // entry while the shell's own script is still being parsed, instead of after it has run.
      let html = remote
        ? shellHtml.replace(
            '</head>',
            () =>
              `<link rel="preload" href="/remotes/${remote}/mf-manifest.json" as="fetch" crossorigin>` +
              `<link rel="preload" href="/remotes/${remote}/remoteEntry.js" as="script">` +
              '</head>',
          )
        : shellHtml;
      if (prerender) html = composePrerendered(html, prerender, this.year);
      page = htmlPage(html);
      this.cache.set(key, page);
    }
    return page;
  }

  private refresh(): void {
    const now = this.now();
    if (now - this.checkedAt < CHECK_EVERY_MS) return;
    this.checkedAt = now;
    // The year is part of what a page is composed from (see composePrerendered): a new one composes afresh.
    this.year = new Date(now).getFullYear();
    const signature = [...this.watched.map(modified), this.year].join(',');
    if (signature === this.signature) return;
    this.signature = signature;
    this.cache.clear();
    try {
      this.shellHtml = readFileSync(this.indexFile, 'utf8');
    } catch {
      this.shellHtml = undefined;
      return;
    }
    try {
      this.prerendered = loadPrerenderedPages(this.frontendsDir, this.remotes);
    } catch (error) {
      // A build defect (or a build still writing): pages render in the browser until the next good file.
      this.prerendered = [];
      this.signature = undefined;
      this.logger?.warn({ err: error }, 'prerendered pages not served: their file could not be read');
    }
  }
}

/** A file's modification time, or 'none': a changed signature means a build replaced something. */
function modified(file: string): string {
  try {
    return String(statSync(file).mtimeMs);
  } catch {
    return 'none';
  }
}
