// Mailpit 1.33.1, built from source with Go: an SMTP server that keeps every message in a SQLite file and
// shows it over a REST API (GET /api/v1/messages, /api/v1/message/<id>). Identity mails through it
// (MAIL=smtp) and so does Keycloak; the tests read what was sent back from the API.
import { join } from 'node:path';
import {
  type Engine,
  EngineError,
  enginesHome,
  ensureDir,
  httpOk,
  isFile,
  killPid,
  onPath,
  portsFor,
  runStep,
  startDaemon,
  stopPid,
  tcpOpen,
  waitUntil,
} from './support';

const VERSION = '1.33.1';
const home = () => join(enginesHome(), `mailpit-${VERSION}`);
const binary = () => join(home(), 'bin', 'mailpit');

export const mailpit: Engine = {
  name: 'mailpit',
  version: VERSION,

  missing() {
    if (isFile(binary())) return null;
    return `Mailpit ${VERSION} is not built yet: run \`npm run engines -- provision mailpit\` (needs Go).`;
  },

  async provision(log) {
    if (isFile(binary())) return;
    if (!onPath('go')) throw new EngineError('Mailpit is built from source and needs Go on the PATH.');
    const logFile = join(home(), 'build.log');
    log(`building Mailpit ${VERSION} with Go (a few minutes the first time); output in ${logFile}`);
    ensureDir(join(home(), 'bin'));
    // go install writes the binary only once it is linked, so an interrupted build never looks provisioned.
    // The version is stamped in so `mailpit version` and the web UI say which one runs.
    await runStep(
      'go',
      [
        'install',
        '-ldflags',
        `-s -w -X github.com/axllent/mailpit/config.Version=v${VERSION}`,
        `github.com/axllent/mailpit@v${VERSION}`,
      ],
      {
        env: { ...process.env, GOBIN: join(home(), 'bin'), GOFLAGS: '-buildvcs=false', GOTOOLCHAIN: 'local' },
        logFile,
        what: `go install mailpit v${VERSION}`,
      },
    );
  },

  async start({ dataDir, ports: given, log }) {
    const missing = mailpit.missing();
    if (missing) throw new EngineError(missing);
    ensureDir(dataDir);
    const ports = await portsFor(['smtp', 'http'], given);
    const smtpPort = ports.smtp ?? 0;
    const logFile = join(dataDir, 'mailpit.log');
    const child = startDaemon(
      binary(),
      [
        '--smtp',
        `127.0.0.1:${ports.smtp}`,
        '--listen',
        `127.0.0.1:${ports.http}`,
        '--database',
        join(dataDir, 'mailpit.db'),
        // Omni's SMTP URL may carry a user and password (production servers want them); any is accepted,
        // over plain SMTP since nothing leaves the machine.
        '--smtp-auth-accept-any',
        '--smtp-auth-allow-insecure',
        // No look-ups on the network: the machine may have none.
        '--disable-version-check',
        '--smtp-disable-rdns',
        '--max',
        '5000',
      ],
      { cwd: dataDir, logFile },
    );
    const api = `http://127.0.0.1:${ports.http}`;
    try {
      await waitUntil(
        async () =>
          (await httpOk(`${api}/api/v1/messages?limit=1`, (s) => s === 200)) && (await tcpOpen(smtpPort)),
        { what: `Mailpit ${VERSION}`, pid: child.pid, logFile, timeoutMs: 30_000 },
      );
    } catch (err) {
      killPid(child.pid);
      throw err;
    }
    log?.(`mailpit: SMTP 127.0.0.1:${ports.smtp}, messages ${api}`);
    return {
      name: 'mailpit',
      pids: [child.pid],
      ports,
      endpoints: { smtp: `127.0.0.1:${ports.smtp}`, mailpit: api },
      env: { MAIL: 'smtp', SMTP_URL: `smtp://127.0.0.1:${ports.smtp}`, MAILPIT_URL: api },
      logFile,
      stop: () => stopPid(child.pid),
      kill: () => killPid(child.pid),
    };
  },
};
