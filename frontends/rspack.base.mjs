// One rspack configuration for the shell and every remote, so they agree on what matters at run
// time: the shared singletons, the public paths the gateway serves them under, and the CSS pipeline.
// Each package's rspack.config.mjs only says who it is and what it exposes.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import { rspack } from '@rspack/core';
import { ReactRefreshRspackPlugin } from '@rspack/plugin-react-refresh';
import autoprefixer from 'autoprefixer';
import tailwindcss from 'tailwindcss';

const require = createRequire(import.meta.url);
const frontendsDir = path.dirname(fileURLToPath(import.meta.url));
const uiDir = path.join(frontendsDir, 'ui');

/** Dev-server ports; the shell's dev app-config points at the remotes' servers on these. */
export const DEV_PORTS = { shell: 3000, marketing: 3001, dashboard: 3002, admin: 3003, finder: 3004 };
export const REMOTE_NAMES = ['marketing', 'dashboard', 'admin', 'finder'];

/** Where the gateway serves a remote's dist in production (the shell's dist is served at `/`). */
export const remotePublicPath = (name) => `/remotes/${name}/`;

/** The runtime remote list, as /app-config.json carries it. */
export function appConfig(mode) {
  const remotes = {};
  for (const name of REMOTE_NAMES) {
    remotes[name] =
      mode === 'development'
        ? `http://localhost:${devPort(name)}/mf-manifest.json`
        : `${remotePublicPath(name)}mf-manifest.json`;
  }
  return { remotes };
}

function devPort(name) {
  const fromEnv = process.env[`OMNI_DEV_PORT_${name.toUpperCase()}`];
  return fromEnv ? Number(fromEnv) : DEV_PORTS[name];
}

/**
 * Libraries that must exist once per page. Two Reacts break hooks; two routers lose the location;
 * two react-query copies lose the shell's QueryClient; two sonner copies toast into a region nobody
 * renders. The host provides React and the router eagerly (its first render needs them); react-query
 * and sonner it only uses behind lazy boundaries, so they stay out of its first chunk. Remotes carry
 * a fallback copy that is only fetched if no host provided one.
 */
function sharedSingletons(isHost) {
  const entry = (pkg, eager) => {
    const version = installedVersion(pkg);
    // `version` is explicit because 'react-router' resolves to our facade (see ui/src/router.ts).
    return { singleton: true, eager: isHost && eager, version, requiredVersion: `^${version}` };
  };
  return {
    react: entry('react', true),
    'react/jsx-runtime': entry('react', true),
    'react/jsx-dev-runtime': entry('react', true),
    'react-dom': entry('react-dom', true),
    'react-dom/client': entry('react-dom', true),
    'react-router': entry('react-router', true),
    '@tanstack/react-query': entry('@tanstack/react-query', false),
    sonner: entry('sonner', false),
    // Our own singleton: the browser session (tokens, refresh timer, listeners). A second copy in a
    // remote would not see the shell's sign-in. Loaded by whoever needs it first, like react-query.
    '@omni/ui/session': {
      singleton: true,
      eager: false,
      version: installedVersion('@omni/ui'),
      requiredVersion: `^${installedVersion('@omni/ui')}`,
    },
  };
}

/** Folder and version of an installed package (some, like sonner, do not export their package.json). */
function installedPackage(pkg) {
  let dir = path.dirname(require.resolve(pkg));
  while (dir !== path.dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
      if (manifest.name === pkg) return { dir, version: manifest.version };
    } catch {
      // no package.json at this level: keep walking up
    }
    dir = path.dirname(dir);
  }
  throw new Error(`Cannot find the installed package ${pkg}`);
}

const installedVersion = (pkg) => installedPackage(pkg).version;

function cssRule({ packageDir, withBase }) {
  const tailwindConfig = {
    presets: [require(path.join(uiDir, 'tailwind-preset.cjs'))],
    // index.html too: the shell's page carries markup of its own (the skip link).
    content: [
      path.join(packageDir, 'src/**/*.{ts,tsx}'),
      path.join(packageDir, '*.html'),
      path.join(uiDir, 'src/**/*.{ts,tsx}'),
    ],
    // Only the shell ships the reset: a remote's stylesheet arrives after the page is styled and
    // must not reset it again.
    corePlugins: { preflight: withBase },
  };
  return {
    test: /\.css$/,
    type: 'css',
    use: [
      {
        loader: 'postcss-loader',
        options: { postcssOptions: { plugins: [tailwindcss(tailwindConfig), autoprefixer()] } },
      },
    ],
  };
}

export function tsRule(isDev) {
  return {
    test: /\.[jt]sx?$/,
    exclude: /node_modules/,
    loader: 'builtin:swc-loader',
    options: {
      jsc: {
        parser: { syntax: 'typescript', tsx: true },
        transform: { react: { runtime: 'automatic', development: isDev, refresh: isDev } },
      },
      env: { targets: 'chrome >= 109, edge >= 109, firefox >= 115, safari >= 16' },
    },
    type: 'javascript/auto',
  };
}

/** Where the shell's build lists its lazily loaded scripts (read by the gateway, html-pages.ts). */
export const LAZY_CHUNKS_FILE = 'lazy-chunks.json';

/**
 * The shell's page: its entry script at high priority, and a list of the scripts the shell loads
 * lazily (the remote page providers, react-query, the session, toasts, the email-link handler). They
 * are split from the first chunk to keep it small to parse, not because a page can do without them:
 * every remote page needs most of them right after the first render. The gateway preloads them for
 * screens that are not prerendered, so they arrive with the entry script rather than after it ran.
 */
function shellPagePlugin() {
  return {
    apply(compiler) {
      compiler.hooks.thisCompilation.tap('OmniShellPage', (compilation) => {
        rspack.HtmlRspackPlugin.getCompilationHooks(compilation).alterAssetTags.tapPromise(
          'OmniShellPage',
          async (data) => {
            for (const tag of data.assetTags.scripts) tag.attributes.fetchpriority = 'high';
            return data;
          },
        );
        compilation.hooks.processAssets.tap(
          // After the content hashes are final (they rename the files).
          { name: 'OmniShellPage', stage: rspack.Compilation.PROCESS_ASSETS_STAGE_REPORT },
          () => {
            const publicPath = compilation.outputOptions.publicPath;
            const scripts = [];
            for (const chunk of compilation.chunks) {
              if (chunk.canBeInitial()) continue;
              for (const file of chunk.files) if (file.endsWith('.js')) scripts.push(`${publicPath}${file}`);
            }
            compilation.emitAsset(
              LAZY_CHUNKS_FILE,
              new rspack.sources.RawSource(`${JSON.stringify({ scripts: scripts.sort() }, null, 2)}\n`),
            );
          },
        );
      });
    },
  };
}

/** Module resolution shared by the browser bundles and the build-time prerender bundle. */
export function resolveOptions(isDev) {
  return {
    extensions: ['.tsx', '.ts', '.jsx', '.js', '.mjs', '.json'],
    alias: {
      // Everyone's 'react-router' is the facade that re-exports the subset we use (ui/src/router.ts).
      'react-router$': path.join(uiDir, 'src/router.ts'),
      // The facade's source: react-router's package exports always name its development build,
      // so pick the build for the mode by path.
      '@omni/react-router-impl$': path.join(
        installedPackage('react-router').dir,
        `dist/${isDev ? 'development' : 'production'}/index.mjs`,
      ),
    },
  };
}

/**
 * @param {object} options
 * @param {string} options.name federation name: 'shell' or a remote's name
 * @param {string} options.packageDir the package folder (holds src/ and gets dist/)
 * @param {Record<string, string>} [options.exposes] remote modules, e.g. { './MusicPage': './src/pages/music-page.tsx' }
 * @param {string} mode 'development' | 'production'
 */
export function createConfig({ name, packageDir, exposes }, mode = 'production') {
  const isDev = mode === 'development';
  const isShell = name === 'shell';
  const port = devPort(name);
  const publicPath = isDev ? `http://localhost:${port}/` : isShell ? '/' : remotePublicPath(name);

  const plugins = [
    new ModuleFederationPlugin(
      isShell
        ? {
            name,
            // No build-time remotes: their manifests are named by /app-config.json at start-up, so
            // a remote redeploys without rebuilding the shell.
            remotes: {},
            shared: sharedSingletons(true),
            // 'version-first' would download every registered remote's entry to compare versions
            // before the first shared module loads; the host already provides them all.
            shareStrategy: 'loaded-first',
            manifest: false,
            dts: false,
            // Drop the runtime's Node.js code paths from the browser bundle. The shell's copy of the
            // federation runtime is also the remotes' (externalRuntime below).
            experiments: { optimization: { target: 'web' }, provideExternalRuntime: true },
          }
        : {
            name,
            filename: 'remoteEntry.js',
            exposes,
            shared: sharedSingletons(false),
            shareStrategy: 'loaded-first',
            manifest: true,
            dts: false,
            // The federation runtime comes from the shell that loads the remote, instead of a second
            // copy in every remoteEntry.js: ~80 KB less script to fetch and run before a remote page
            // can render.
            experiments: { optimization: { target: 'web' }, externalRuntime: true },
          },
    ),
    new rspack.DefinePlugin({ 'process.env.NODE_ENV': JSON.stringify(mode) }),
  ];
  if (isShell) {
    plugins.push(
      // The entry script in the head, fetched first and at high priority: everything waits for it to
      // run, yet Chrome fetches a deferred script at low priority, after the preloads the gateway adds
      // for the screen's remote (and a browser opens only six connections to one HTTP/1.1 host).
      new rspack.HtmlRspackPlugin({
        template: path.join(packageDir, 'index.html'),
        inject: 'head',
        scriptLoading: 'defer',
      }),
      shellPagePlugin(),
      // A default runtime config matching the gateway's layout, so the dist works on any static host.
      // The gateway may serve its own /app-config.json instead.
      {
        apply(compiler) {
          compiler.hooks.thisCompilation.tap('OmniAppConfig', (compilation) => {
            compilation.hooks.processAssets.tap(
              { name: 'OmniAppConfig', stage: rspack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
              () => {
                compilation.emitAsset(
                  'app-config.json',
                  new rspack.sources.RawSource(`${JSON.stringify(appConfig(mode), null, 2)}\n`),
                );
              },
            );
          });
        },
      },
    );
  }
  if (isDev) plugins.push(new ReactRefreshRspackPlugin());

  return {
    mode,
    name,
    context: packageDir,
    // A remote has no page of its own: the federation plugin adds its container entry.
    entry: isShell ? { main: './src/index.tsx' } : {},
    target: 'web',
    devtool: isDev ? 'cheap-module-source-map' : false,
    output: {
      path: path.join(packageDir, 'dist'),
      publicPath,
      uniqueName: `omni_${name}`,
      filename: isDev ? '[name].js' : '[name].[contenthash:8].js',
      chunkFilename: isDev ? '[name].js' : '[name].[contenthash:8].js',
      cssFilename: isDev ? '[name].css' : '[name].[contenthash:8].css',
      cssChunkFilename: isDev ? '[name].css' : '[name].[contenthash:8].css',
      clean: true,
    },
    resolve: resolveOptions(isDev),
    module: {
      // An import of a name a module does not export fails the build instead of becoming
      // `undefined` at run time. (Imports of shared modules are checked by tsc instead: the bundler
      // cannot see their exports.)
      parser: { javascript: { exportsPresence: 'error' } },
      rules: [tsRule(isDev), cssRule({ packageDir, withBase: isShell })],
    },
    plugins,
    optimization: isDev
      ? {}
      : {
          moduleIds: 'deterministic',
          chunkIds: 'deterministic',
          // A remote's stylesheet is the same for all its pages: one file, fetched once, instead of
          // one copy per exposed module.
          splitChunks: isShell
            ? undefined
            : { cacheGroups: { styles: { type: 'css', name: 'styles', chunks: 'all', enforce: true } } },
        },
    performance: { hints: false },
    stats: isDev ? 'errors-warnings' : 'errors-warnings',
    devServer: {
      port,
      hot: true,
      historyApiFallback: isShell,
      // The shell's page (another port) fetches remote manifests and chunks.
      headers: { 'Access-Control-Allow-Origin': '*' },
      client: { overlay: { errors: true, warnings: false } },
      proxy: isShell
        ? [{ context: ['/api'], target: process.env.OMNI_API_URL ?? 'http://127.0.0.1:8080' }]
        : [],
      setupMiddlewares: isShell
        ? (middlewares) => {
            middlewares.unshift({
              name: 'omni-app-config',
              path: '/app-config.json',
              middleware: (_req, res) => {
                res.setHeader('content-type', 'application/json');
                res.setHeader('cache-control', 'no-store');
                res.end(JSON.stringify(appConfig('development')));
              },
            });
            return middlewares;
          }
        : undefined,
    },
  };
}
