// A throwaway OpenSSH server for the SFTP contract suite: Debian's sshd on loopback, a random port, its
// own host key and one authorised client key, all in a temp folder. The sftp subsystem is the external
// sftp-server with its log (every open, close and rename, in order) sent to a file, so the suite can see
// on the server side what the client did.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const SSHD = '/usr/sbin/sshd';
const SFTP_SERVER = '/usr/lib/openssh/sftp-server';

export interface RunningSshd {
  port: number;
  username: string;
  privateKey: Buffer;
  /** A key the server does not know. */
  strangerKey: Buffer;
  hostKey: string;
  /** The SFTP root on disk (the store's side). */
  root: string;
  /** sftp-server's log lines so far. */
  log(): string[];
  stop(): Promise<void>;
}

/** Resolves with a running server, or a reason it cannot run here (the suite prints it as SKIPPED). */
export async function startSshd(): Promise<RunningSshd | string> {
  if (!fs.existsSync(SSHD)) return `${SSHD} is missing (apt-get install openssh-server)`;
  if (!fs.existsSync(SFTP_SERVER)) return `${SFTP_SERVER} is missing`;
  // As root, sshd insists on its privilege separation folder, which Debian's service unit makes.
  if (process.getuid?.() === 0 && !fs.existsSync('/run/sshd')) {
    try {
      fs.mkdirSync('/run/sshd', { mode: 0o755 });
    } catch (err) {
      return `sshd needs /run/sshd and it cannot be made: ${(err as Error).message}`;
    }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'omni-sshd-'));
  const root = path.join(dir, 'root');
  fs.mkdirSync(root);
  const key = (name: string) => {
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, name)]);
    return path.join(dir, name);
  };
  const hostKey = key('host_key');
  const clientKey = key('client_key');
  const strangerKey = key('stranger_key');
  fs.copyFileSync(`${clientKey}.pub`, path.join(dir, 'authorized_keys'));
  const port = await freePort();
  const username = os.userInfo().username;
  const sftpLog = path.join(dir, 'sftp.log');
  fs.writeFileSync(sftpLog, '');
  const config = path.join(dir, 'sshd_config');
  fs.writeFileSync(
    config,
    [
      'ListenAddress 127.0.0.1',
      `Port ${port}`,
      `HostKey ${hostKey}`,
      'PidFile none',
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      // The temp folder and its keys belong to whoever runs the tests.
      'StrictModes no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'PermitRootLogin prohibit-password',
      `AllowUsers ${username}`,
      // Run through the login shell: the redirection keeps the log away from the SFTP channel.
      `Subsystem sftp ${SFTP_SERVER} -e -l INFO -d ${root} 2>>${sftpLog}`,
    ].join('\n'),
  );
  const child = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += String(d);
  });
  const listening = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 5000);
    child.stderr.on('data', () => {
      if (stderr.includes('Server listening')) {
        clearTimeout(timer);
        resolve(true);
      }
    });
    child.on('exit', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
  if (!listening) {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
    return `sshd did not start: ${stderr.trim().split('\n').slice(-2).join(' ') || 'no output'}`;
  }
  return {
    port,
    username,
    privateKey: fs.readFileSync(clientKey),
    strangerKey: fs.readFileSync(strangerKey),
    hostKey: fs.readFileSync(`${hostKey}.pub`, 'utf8'),
    root,
    log: () =>
      fs
        .readFileSync(sftpLog, 'utf8')
        .split('\n')
        .filter((l) => l.length > 0),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
