// Keycloak 26.5.6 (the Quarkus distribution from Maven Central), run as production does (`kc.sh start`),
// with Omni's realm imported from deploy/keycloak/omni-realm.json.
//
// 26.5.6 rather than the newer 26.7.3 also served: it is the release the realm and the adapter were
// verified on here, with the legacy token exchange (v1) and fine-grained admin permissions (v1) that
// passwordless sign-in (impersonation) needs; 26.7.3 was not tried. Moving up is this constant and a run of
// the identity contract suite.
//
// Provisioning unpacks the zip and runs `kc.sh build` once with the build-time options (dev-file database,
// the two features), so a start is `start --optimized` and skips Quarkus' augmentation. It then starts
// Keycloak once on an empty database and keeps that database (schema, master realm and its admin, no omni
// realm) as a template: a fresh data folder starts from a copy instead of spending half a minute creating
// the schema. The omni realm is imported, with a client secret of its own, per data folder.
// Each start runs from a Keycloak home of its own under dataDir (bin/kc.sh copied, lib/conf/themes/providers
// linked to the cache): Keycloak keeps its H2 database, transaction logs and the realms to import under
// <home>/data, so a test's data stays in its dataDir and the cache is never written after provisioning.
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import {
  type Engine,
  EngineError,
  enginesHome,
  ensureDir,
  freePort,
  httpOk,
  isFile,
  javaHome,
  killPid,
  onPath,
  portsFor,
  REPO,
  runStep,
  startDaemon,
  stopPid,
  tail,
  waitUntil,
} from './support';

const VERSION = '26.5.6';
const JAVA_MAJOR = 21;
const REALM = 'omni';
const SERVICES_CLIENT = 'omni-services';
const ADMIN_USER = 'omni-admin';
/** Options Keycloak fixes at build time; the build marker holds them so a change rebuilds. */
const BUILD_OPTIONS = [
  '--db=dev-file',
  // Impersonation by token exchange (verified-link and magic-link sign-in) is legacy token exchange only.
  '--features=token-exchange:v1,admin-fine-grained-authz:v1',
  '--health-enabled=false',
  '--metrics-enabled=false',
];
// Two cores shared by every engine: a small heap is plenty for a test realm.
const HEAP = '-Xms64m -Xmx512m';

const home = () => join(enginesHome(), `keycloak-${VERSION}`);
const dist = () => join(home(), `keycloak-${VERSION}`);
const builtMarker = () => join(home(), 'built');
/** The template: its database (h2/) and the password of the admin in it (admin.json), made together. */
const template = () => join(home(), 'template');
/**
 * The master realm's admin lives in the template's database: Keycloak makes its bootstrap admin only when
 * it creates the master realm. Every data folder started from the template shares this password (0600);
 * it is a test engine's, listening on 127.0.0.1 only.
 */
const templateAdmin = () => join(template(), 'admin.json');
const realmFile = () => join(REPO, 'deploy/keycloak/omni-realm.json');

const built = () =>
  isFile(builtMarker()) && readFileSync(builtMarker(), 'utf8').trim() === BUILD_OPTIONS.join(' ');
const provisioned = () =>
  built() && existsSync(join(template(), 'h2/keycloakdb.mv.db')) && isFile(templateAdmin());

function java(): string {
  const found = javaHome(JAVA_MAJOR);
  if (!found)
    throw new EngineError(
      `Keycloak ${VERSION} needs Java ${JAVA_MAJOR} or newer, and neither JAVA_HOME nor /usr/lib/jvm has one: install a JDK ${JAVA_MAJOR}+ (e.g. Temurin) or point JAVA_HOME at it.`,
    );
  return found;
}

const kcEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  JAVA_HOME: java(),
  JAVA_OPTS_KC_HEAP: HEAP,
  // On Java 24+ JBoss Threads needs the first to reset thread-locals; without it a worker thread dies at
  // the first request with IllegalAccessError. The second keeps to the quick compiler: half the CPU time of
  // a start (19-23 s instead of 35-40 s measured), and a test realm never runs long enough to miss C2.
  JAVA_OPTS_APPEND: '--add-opens=java.base/java.lang=ALL-UNNAMED -XX:TieredStopAtLevel=1',
  ...extra,
});

interface Secrets {
  clientSecret: string;
  adminPassword: string;
}

/** Made once per data folder and kept (0600): the realm imported there holds this client secret. */
function secretsFor(dataDir: string): Secrets {
  const file = join(dataDir, 'secrets.json');
  if (isFile(file)) return JSON.parse(readFileSync(file, 'utf8')) as Secrets;
  const secrets: Secrets = {
    clientSecret: randomBytes(24).toString('base64url'),
    adminPassword: isFile(templateAdmin())
      ? (JSON.parse(readFileSync(templateAdmin(), 'utf8')) as { password: string }).password
      : randomBytes(18).toString('base64url'),
  };
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  return secrets;
}

/** `kc.sh start` as every start runs it; the realm import only where Omni's realm belongs. */
function startArgs(port: number, importRealm: boolean): string[] {
  return [
    'start',
    '--optimized',
    '--http-enabled=true',
    '--http-host=127.0.0.1',
    `--http-port=${port}`,
    // The issuer follows the address a request came to: services use 127.0.0.1, browsers localhost.
    '--hostname-strict=false',
    ...(importRealm ? ['--import-realm'] : []),
    // One node: without this Keycloak forms a JGroups cluster, listening on every interface.
    '--cache=local',
  ];
}

/** The Keycloak home this data folder runs from (see the file's comment); refreshed at every start. */
function homeFor(dataDir: string, importRealm = true): string {
  const kcHome = ensureDir(join(dataDir, 'home'));
  for (const shared of ['lib', 'conf', 'themes', 'providers']) {
    const link = join(kcHome, shared);
    if (!existsSync(link)) symlinkSync(join(dist(), shared), link);
  }
  // kc.sh finds its home from its own real path, so it is a copy, not a link.
  ensureDir(join(kcHome, 'bin'));
  copyFileSync(join(dist(), 'bin/kc.sh'), join(kcHome, 'bin/kc.sh'));
  // Keycloak skips a realm that exists, so a restart keeps the data and ignores changes to the file.
  ensureDir(join(kcHome, 'data/import'));
  if (importRealm) copyFileSync(realmFile(), join(kcHome, 'data/import/omni-realm.json'));
  const database = join(kcHome, 'data/h2');
  // A fresh data folder starts from the template; the template itself is made from nothing.
  if (importRealm && !existsSync(database) && existsSync(template()))
    cpSync(join(template(), 'h2'), database, { recursive: true });
  return kcHome;
}

/** SMTP_HOST/SMTP_PORT for the realm's mail settings, from Mailpit's SMTP_URL when it runs. */
function smtpOf(smtpUrl: string | undefined): Record<string, string> {
  if (!smtpUrl) return {};
  const url = new URL(smtpUrl);
  return { SMTP_HOST: url.hostname, SMTP_PORT: url.port || '25' };
}

export const keycloak: Engine = {
  name: 'keycloak',
  version: VERSION,

  missing() {
    if (provisioned()) return null;
    return `Keycloak ${VERSION} is not provisioned yet: run \`npm run engines -- provision keycloak\` (needs Maven and Java ${JAVA_MAJOR}+).`;
  },

  async provision(log) {
    if (provisioned()) return;
    const env = kcEnv();
    const logFile = join(home(), 'provision.log');
    ensureDir(home());
    if (!isFile(join(dist(), 'bin/kc.sh'))) {
      if (!onPath('mvn'))
        throw new EngineError('Keycloak is downloaded with Maven, and mvn is not on the PATH.');
      if (!onPath('unzip')) throw new EngineError('Unpacking Keycloak needs unzip on the PATH.');
      const download = ensureDir(join(home(), 'download'));
      const zip = join(download, `keycloak-quarkus-dist-${VERSION}.zip`);
      if (!isFile(zip)) {
        log(`downloading Keycloak ${VERSION} (164 MB) with Maven; output in ${logFile}`);
        await runStep(
          'mvn',
          [
            '-q',
            '-B',
            'dependency:copy',
            `-Dartifact=org.keycloak:keycloak-quarkus-dist:${VERSION}:zip`,
            `-DoutputDirectory=${download}`,
          ],
          { cwd: download, logFile, what: `downloading Keycloak ${VERSION}` },
        );
      }
      // Unpacked beside its final place and renamed, so an interrupted unzip never looks provisioned.
      const partial = join(home(), `unpacking-${process.pid}`);
      rmSync(partial, { recursive: true, force: true });
      await runStep('unzip', ['-q', zip, '-d', partial], { logFile, what: `unpacking Keycloak ${VERSION}` });
      if (!isFile(join(dist(), 'bin/kc.sh'))) renameSync(join(partial, `keycloak-${VERSION}`), dist());
      rmSync(partial, { recursive: true, force: true });
      // The zip is in Maven's own repository too; no need to keep a second copy.
      rmSync(download, { recursive: true, force: true });
    }
    if (!built()) {
      log(`building Keycloak ${VERSION} for ${BUILD_OPTIONS.join(' ')} (about a minute)`);
      rmSync(builtMarker(), { force: true });
      rmSync(template(), { recursive: true, force: true });
      await runStep(join(dist(), 'bin/kc.sh'), ['build', ...BUILD_OPTIONS], {
        env,
        logFile,
        what: `kc.sh build (Keycloak ${VERSION})`,
      });
      writeFileSync(builtMarker(), `${BUILD_OPTIONS.join(' ')}\n`);
    }
    log(`starting Keycloak ${VERSION} once to keep an empty database as the template (a minute or two)`);
    await makeTemplate(logFile);
  },

  async start({ dataDir, ports: given, env: before = {}, log }) {
    const missing = keycloak.missing();
    if (missing) throw new EngineError(missing);
    ensureDir(dataDir);
    const ports = await portsFor(['http'], given);
    const secrets = secretsFor(dataDir);
    const kcHome = homeFor(dataDir);
    const logFile = join(dataDir, 'keycloak.log');
    const url = `http://127.0.0.1:${ports.http}`;
    const child = startDaemon(join(kcHome, 'bin/kc.sh'), startArgs(ports.http ?? 0, true), {
      cwd: dataDir,
      logFile,
      env: kcEnv({
        // The realm file's placeholders.
        OMNI_SERVICES_CLIENT_SECRET: secrets.clientSecret,
        ...(before.OMNI_PUBLIC_URL ? { OMNI_PUBLIC_URL: before.OMNI_PUBLIC_URL } : {}),
        ...smtpOf(before.SMTP_URL),
        // Google is configured in the realm even without real credentials; Google itself would refuse.
        GOOGLE_CLIENT_ID: process.env.GOOGLE_CLIENT_ID || 'google-client-id-not-configured',
        GOOGLE_CLIENT_SECRET: process.env.GOOGLE_CLIENT_SECRET || 'google-client-secret-not-configured',
      }),
    });
    try {
      await waitUntil(
        () => httpOk(`${url}/realms/${REALM}/.well-known/openid-configuration`, (s) => s === 200),
        // Long: on two cores shared with Kafka and the rest starting at the same time, a first start has
        // taken over two minutes. A Keycloak that exits is reported at once all the same.
        { what: `Keycloak ${VERSION}`, pid: child.pid, logFile, timeoutMs: 300_000 },
      );
      await allowImpersonation(url, secrets.adminPassword);
    } catch (err) {
      killPid(child.pid);
      if (err instanceof EngineError) throw err;
      throw new EngineError(
        `Keycloak ${VERSION} started but could not be set up: ${(err as Error).message}; the end of ${logFile}:\n${tail(logFile)}`,
      );
    }
    log?.(`keycloak: ${url} (realm ${REALM}, admin console ${url}/admin as ${ADMIN_USER})`);
    return {
      name: 'keycloak',
      pids: [child.pid],
      ports,
      endpoints: { keycloak: url },
      env: {
        IDENTITY_PROVIDER: 'keycloak',
        KEYCLOAK_URL: url,
        KEYCLOAK_REALM: REALM,
        KEYCLOAK_CLIENT_SECRET: secrets.clientSecret,
        // For tests that look at the realm through the admin API (Omni's services never need them).
        KEYCLOAK_ADMIN_USER: ADMIN_USER,
        KEYCLOAK_ADMIN_PASSWORD: secrets.adminPassword,
      },
      logFile,
      stop: () => stopPid(child.pid, 20_000),
      kill: () => killPid(child.pid),
    };
  },
};

/**
 * Starts Keycloak on an empty database until the master realm answers, stops it, keeps the database. Made
 * in a folder of this process's own and renamed into place whole, so two provisions at once (the CLI and
 * a cluster start) neither share a scratch folder nor leave a half template.
 */
async function makeTemplate(logFile: string): Promise<void> {
  const scratch = join(home(), `template-run-${process.pid}`);
  rmSync(scratch, { recursive: true, force: true });
  const kcHome = homeFor(scratch, false);
  const port = await freePort();
  const password = randomBytes(18).toString('base64url');
  const child = startDaemon(join(kcHome, 'bin/kc.sh'), startArgs(port, false), {
    cwd: scratch,
    logFile,
    env: kcEnv({ KC_BOOTSTRAP_ADMIN_USERNAME: ADMIN_USER, KC_BOOTSTRAP_ADMIN_PASSWORD: password }),
  });
  try {
    await waitUntil(
      () =>
        httpOk(`http://127.0.0.1:${port}/realms/master/.well-known/openid-configuration`, (s) => s === 200),
      {
        what: `Keycloak ${VERSION} (making the template database)`,
        pid: child.pid,
        logFile,
        timeoutMs: 300_000,
      },
    );
  } finally {
    // Stopped, not killed: H2 writes its file out on a clean shutdown.
    await stopPid(child.pid, 60_000);
  }
  const made = ensureDir(join(scratch, 'template'));
  renameSync(join(kcHome, 'data/h2'), join(made, 'h2'));
  writeFileSync(join(made, 'admin.json'), `${JSON.stringify({ user: ADMIN_USER, password })}\n`, {
    mode: 0o600,
  });
  if (!provisioned()) {
    rmSync(template(), { recursive: true, force: true });
    try {
      renameSync(made, template());
    } catch (err) {
      // Another provision put its template in place meanwhile: theirs is as good.
      if (!provisioned()) throw err;
    }
  }
  rmSync(scratch, { recursive: true, force: true });
}

// ---- The one realm setting the realm file cannot carry ------------------------------------------------

interface Named {
  id: string;
  name?: string;
  clientId?: string;
}

/**
 * Lets omni-services impersonate users by token exchange: fine-grained user permissions on, and a client
 * policy naming omni-services on the `impersonate` permission (who may impersonate). Not on
 * `user-impersonated`: that one is evaluated as the user being impersonated, so a client policy there
 * refuses everyone ("Client not allowed to exchange"). Idempotent: each step looks first.
 */
async function allowImpersonation(url: string, adminPassword: string): Promise<void> {
  const token = await adminToken(url, adminPassword);
  const api = async <T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> => {
    const res = await fetch(`${url}/admin/realms/${REALM}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    if (!res.ok)
      throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const permissions = await api<{ enabled: boolean; scopePermissions?: Record<string, string> }>(
    '/users-management-permissions',
    { method: 'PUT', body: { enabled: true } },
  );
  const permissionId = permissions.scopePermissions?.impersonate;
  if (!permissionId) throw new Error('Keycloak enabled user permissions but named no impersonate permission');
  const [services] = await api<Named[]>(`/clients?clientId=${SERVICES_CLIENT}`);
  const [management] = await api<Named[]>('/clients?clientId=realm-management');
  if (!services || !management)
    throw new Error(`the realm has no ${SERVICES_CLIENT} or realm-management client`);
  const authz = `/clients/${management.id}/authz/resource-server`;
  const policyName = `${SERVICES_CLIENT}-may-impersonate`;
  let policy = (await api<Named[]>(`${authz}/policy?name=${policyName}&exact=true`)).find(
    (p) => p.name === policyName,
  );
  policy ??= await api<Named>(`${authz}/policy/client`, {
    method: 'POST',
    body: { name: policyName, clients: [services.id], logic: 'POSITIVE', decisionStrategy: 'UNANIMOUS' },
  });
  const permission = await api<Record<string, unknown>>(`${authz}/permission/scope/${permissionId}`);
  const attached = await api<Named[]>(`${authz}/policy/${permissionId}/associatedPolicies`);
  if (attached.some((p) => p.id === policy.id)) return;
  await api(`${authz}/permission/scope/${permissionId}`, {
    method: 'PUT',
    body: { ...permission, policies: [...attached.map((p) => p.id), policy.id] },
  });
}

async function adminToken(url: string, password: string): Promise<string> {
  const res = await fetch(`${url}/realms/master/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: 'admin-cli',
      username: ADMIN_USER,
      password,
    }),
    signal: AbortSignal.timeout(15_000),
  });
  if (!res.ok) throw new Error(`the bootstrap admin could not sign in (${res.status})`);
  return ((await res.json()) as { access_token: string }).access_token;
}
