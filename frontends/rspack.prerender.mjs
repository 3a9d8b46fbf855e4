// Build-time rendering of a remote's public pages (see marketing/src/prerender.tsx). A second
// compilation beside the browser one: the same sources and resolution, bundled for Node, then run
// once to write dist/prerender.json, which the gateway reads to put each page's HTML, title,
// description, stylesheets and code hints into the first response for its route.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { rspack } from '@rspack/core';
import { remotePublicPath, resolveOptions, tsRule } from './rspack.base.mjs';

const require = createRequire(import.meta.url);

/**
 * @param {object} options
 * @param {string} options.name the remote (its browser compilation must carry this name)
 * @param {string} options.packageDir the remote's folder
 * @param {string} options.entry module exporting renderPages(): PrerenderedPage[]
 */
export function createPrerenderConfig({ name, packageDir, entry }) {
  const outDir = path.join(packageDir, '.prerender');
  return {
    name: `${name}-prerender`,
    // Runs after the browser build: it reads that build's manifest and writes into its dist.
    dependencies: [name],
    mode: 'production',
    context: packageDir,
    entry: { prerender: entry },
    target: 'node',
    devtool: false,
    output: { path: outDir, filename: '[name].cjs', library: { type: 'commonjs2' }, clean: true },
    // React must be the one react-dom/server renders with; everything else is bundled like the page.
    externals: [/^react(-dom)?(\/.*)?$/],
    externalsType: 'commonjs',
    resolve: resolveOptions(false),
    module: {
      parser: { javascript: { exportsPresence: 'error' } },
      // Styles are the browser build's business; here an import of a stylesheet is a no-op.
      rules: [tsRule(false), { test: /\.css$/, type: 'asset/source' }],
    },
    plugins: [
      new rspack.DefinePlugin({ 'process.env.NODE_ENV': JSON.stringify('production') }),
      // One file: lazy parts (the particle canvas) render their fallback on the server anyway.
      new rspack.optimize.LimitChunkCountPlugin({ maxChunks: 1 }),
      new WritePrerenderedPages({ name, packageDir, bundle: path.join(outDir, 'prerender.cjs') }),
    ],
    optimization: { minimize: false },
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}

class WritePrerenderedPages {
  constructor({ name, packageDir, bundle }) {
    this.name = name;
    this.dist = path.join(packageDir, 'dist');
    this.bundle = bundle;
  }

  apply(compiler) {
    compiler.hooks.afterEmit.tap('WritePrerenderedPages', (compilation) => {
      if (compilation.getErrors().length > 0) return;
      delete require.cache[this.bundle];
      const { renderPages } = require(this.bundle);
      const manifest = JSON.parse(readFileSync(path.join(this.dist, 'mf-manifest.json'), 'utf8'));
      const publicPath = remotePublicPath(this.name);
      const pages = renderPages().map((page) => {
        const expose = manifest.exposes.find((e) => e.path === page.expose);
        if (!expose) throw new Error(`${page.path}: ${this.name} exposes no ${page.expose}`);
        const files = (kind) => expose.assets[kind].sync.map((file) => `${publicPath}${file}`);
        return { ...page, styles: files('css'), scripts: files('js') };
      });
      // Written aside and renamed into place: a running gateway re-reads the file after a build and
      // must never see half of it.
      const file = path.join(this.dist, 'prerender.json');
      writeFileSync(`${file}.tmp`, `${JSON.stringify({ remote: this.name, pages })}\n`);
      renameSync(`${file}.tmp`, file);
      // The Node bundle is only a means: what ships is prerender.json.
      rmSync(path.dirname(this.bundle), { recursive: true, force: true });
    });
  }
}
