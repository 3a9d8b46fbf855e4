// The HTML document for each screen: the shell's index.html with hints for the remote that renders the
// screen (its manifest, its entry, and the scripts and stylesheet of the screen's page, from the remote's
// build manifest) and, where the remote rendered the page at build time, the page itself. Composed and compressed
// once per variant, and composed afresh when a build replaces index.html or a prerender file: a
// `npm run build:frontends` under a running platform must not leave it serving a page whose scripts
// the build deleted.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { Logger } from '@omni/platform';
import { z } from 'zod';
import {
  composePrerendered,
  findPrerendered,
  loadPrerenderedPages,
  type PrerenderedPage,
} from './prerendered-pages';
import { loadRemoteManifests, manifestFile, type RemoteManifests } from './remote-manifests';

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

/** The part of a screen the page composition needs: who renders it and which of its modules. */
export interface ScreenRef {
  remote: string;
  exposes: readonly string[];
}

/**
 * Where a page opened from an emailed verification link ends up. The link (/login?verify=…) signs the
 * user in and opens /app without rendering /login on the way (frontends/shell/src/session/email-links.tsx),
 * so its first response preloads /app's page, not the login form. Magic links stay on the page they name.
 */
const AFTER_VERIFICATION = '/app';

/** The shell's lazily loaded scripts, as its build lists them (frontends/rspack.base.mjs). */
const LazyChunks = z.object({ scripts: z.array(z.string().startsWith('/')) });

const escapeAttr = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

export class HtmlPages {
  private readonly indexFile: string;
  private readonly lazyChunksFile: string;
  /** The files a build replaces; their modification times tell when to compose afresh. */
  private readonly watched: string[];
  private signature: string | undefined;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private shellHtml: string | undefined;
  private prerendered: PrerenderedPage[] = [];
  private manifests: RemoteManifests = new Map();
  private shellLazyScripts: string[] = [];
  private readonly cache = new Map<string, HtmlPage>();
  private year = 0;
  private composedFor = 0;

  constructor(
    private readonly frontendsDir: string,
    private readonly remotes: readonly string[],
    private readonly screenOf: (path: string) => ScreenRef | undefined,
    private readonly logger?: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.indexFile = join(frontendsDir, 'shell', 'dist', 'index.html');
    this.lazyChunksFile = join(frontendsDir, 'shell', 'dist', 'lazy-chunks.json');
    this.watched = [
      this.indexFile,
      this.lazyChunksFile,
      ...remotes.map((remote) => join(frontendsDir, remote, 'dist', 'prerender.json')),
      ...remotes.map((remote) => manifestFile(frontendsDir, remote)),
    ];
  }

  /** False while the web app has not been built. */
  built(): boolean {
    this.refresh();
    return this.shellHtml !== undefined;
  }

  /** Changes whenever the build's files do (what was derived from the last build is stale then). */
  generation(): number {
    this.refresh();
    return this.composedFor;
  }

  /** The document for a request's path and query. Call built() first. */
  pageFor(path: string, query: URLSearchParams): HtmlPage {
    this.refresh();
    const shellHtml = this.shellHtml ?? '';
    const screen = query.has('verify') ? this.screenOf(AFTER_VERIFICATION) : this.screenOf(path);
    const prerender = screen ? findPrerendered(this.prerendered, path, query) : undefined;
    const key = prerender
      ? `${prerender.path}?${new URLSearchParams(prerender.query)}`
      : screen
        ? `${screen.remote}:${screen.exposes.join(',')}`
        : '';
    let page = this.cache.get(key);
    if (!page) {
      let html = screen
        ? shellHtml.replace('</head>', () => `${this.hints(screen, !prerender)}</head>`)
        : shellHtml;
      if (prerender) html = composePrerendered(html, prerender, this.year);
      page = htmlPage(html);
      this.cache.set(key, page);
    }
    return page;
  }

  /**
   * The remote that renders a screen is known here, so the page can start fetching its manifest, its
   * entry and the screen's own scripts and stylesheet while the shell's script is still being parsed,
   * instead of one after the other once it has run; and the scripts the shell loads lazily, which
   * every remote page needs right after the shell's first render. A prerendered page names its own
   * files (composePrerendered) and is read before any script runs, so `withPageAssets` is false for it:
   * there the shell's lazy scripts are left to the shell, not to compete with what the page shows.
   */
  private hints(screen: ScreenRef, withPageAssets: boolean): string {
    const { remote } = screen;
    const links = [
      `<link rel="preload" href="/remotes/${remote}/mf-manifest.json" as="fetch" crossorigin>`,
      `<link rel="preload" href="/remotes/${remote}/remoteEntry.js" as="script">`,
    ];
    if (withPageAssets) {
      const pages = this.manifests.get(remote);
      const styles = new Set<string>();
      const scripts = new Set<string>();
      for (const expose of screen.exposes) {
        for (const href of pages?.get(expose)?.styles ?? []) styles.add(href);
        for (const href of pages?.get(expose)?.scripts ?? []) scripts.add(href);
      }
      for (const href of styles) links.push(`<link rel="preload" href="${escapeAttr(href)}" as="style">`);
      for (const href of this.shellLazyScripts) scripts.add(href);
      for (const href of scripts) links.push(`<link rel="preload" href="${escapeAttr(href)}" as="script">`);
    }
    return links.join('');
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
    this.composedFor++;
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
    try {
      this.shellLazyScripts = existsSync(this.lazyChunksFile)
        ? LazyChunks.parse(JSON.parse(readFileSync(this.lazyChunksFile, 'utf8'))).scripts
        : [];
      this.manifests = loadRemoteManifests(this.frontendsDir, this.remotes);
    } catch (error) {
      // As above: the pages still work, they just fetch their scripts when the shell asks for them.
      this.shellLazyScripts = [];
      this.manifests = new Map();
      this.signature = undefined;
      this.logger?.warn(
        { err: error },
        "page scripts not preloaded: a remote manifest or the shell's chunk list could not be read",
      );
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
