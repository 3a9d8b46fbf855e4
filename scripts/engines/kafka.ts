// Apache Kafka in KRaft mode (one process that is both broker and controller), the production event bus.
// Kafka ships as a tarball with shell scripts; we need only its jars, so Maven resolves them (with a log4j2
// binding) into a lib/ folder and the broker is started with plain `java -cp`.
//
// The data folder holds the broker's log segments and its meta.properties (written once by StorageTool's
// format), so a restart on the same folder and ports keeps every topic, message and committed offset.
//
// 4.4.0 is the newest release Maven Central serves here; kafkajs 2.2.4 shares a protocol version with it
// for every API the adapter sends (the contract suite checks this), and 4.1.1 passes the same suite.

import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import {
  type Engine,
  EngineError,
  enginesHome,
  ensureDir,
  isFile,
  javaHome,
  killPid,
  onPath,
  portsFor,
  runStep,
  startDaemon,
  stopPid,
  waitUntil,
} from './support';

const VERSION = '4.4.0';
const JAVA_MAJOR = 17;
const home = () => join(enginesHome(), `kafka-${VERSION}`);
const lib = () => join(home(), 'lib');
/** Written last by provision(): lib/ is complete once it exists. */
const marker = () => join(home(), 'provisioned');
const log4jConfig = () => join(home(), 'log4j2.properties');

// slf4j-api is named explicitly: Kafka's own dependency tree brings 1.7.x, which the SLF4J-2 binding of
// log4j ignores, and the broker would then log nothing at all.
const POM = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>omni.engines</groupId>
  <artifactId>kafka-runtime</artifactId>
  <version>${VERSION}</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>org.apache.kafka</groupId>
      <artifactId>kafka_2.13</artifactId>
      <version>${VERSION}</version>
    </dependency>
    <dependency>
      <groupId>org.slf4j</groupId>
      <artifactId>slf4j-api</artifactId>
      <version>2.0.17</version>
    </dependency>
    <dependency>
      <groupId>org.apache.logging.log4j</groupId>
      <artifactId>log4j-slf4j2-impl</artifactId>
      <version>2.24.3</version>
    </dependency>
    <dependency>
      <groupId>org.apache.logging.log4j</groupId>
      <artifactId>log4j-core</artifactId>
      <version>2.24.3</version>
    </dependency>
  </dependencies>
</project>
`;

// Properties rather than YAML: log4j reads YAML only with jackson-dataformat-yaml on the class path.
const LOG4J = `status = warn
appender.console.type = Console
appender.console.name = console
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.console.ref = console
# The request log and the state-change log repeat every request at INFO.
logger.request.name = kafka.request.logger
logger.request.level = WARN
logger.state.name = state.change.logger
logger.state.level = WARN
`;

function serverProperties(dataDir: string, ports: Record<string, number>): string {
  const broker = `127.0.0.1:${ports.kafka}`;
  const controller = `127.0.0.1:${ports.controller}`;
  return `process.roles=broker,controller
node.id=1
controller.quorum.bootstrap.servers=${controller}
listeners=PLAINTEXT://${broker},CONTROLLER://${controller}
advertised.listeners=PLAINTEXT://${broker},CONTROLLER://${controller}
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=${join(dataDir, 'log')}
num.partitions=3
offsets.topic.replication.factor=1
offsets.topic.num.partitions=3
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
# One broker: a new group need not wait for more members before its first assignment.
group.initial.rebalance.delay.ms=0
# Omni creates its topics itself, with its partition count (the adapter never asks for auto-creation).
auto.create.topics.enable=false
`;
}

function javaBinary(): string | null {
  const jdk = javaHome(JAVA_MAJOR);
  return jdk ? join(jdk, 'bin', 'java') : null;
}

/** The broker's log from `from` on: the file is appended to across restarts. */
function logSince(file: string, from: number): string {
  let fd: number | undefined;
  try {
    const size = statSync(file).size;
    if (size <= from) return '';
    fd = openSync(file, 'r');
    const buffer = Buffer.alloc(size - from);
    readSync(fd, buffer, 0, buffer.length, from);
    return buffer.toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/**
 * One ApiVersions request (key 18, version 0) over the Kafka protocol: true when the broker answers with
 * error code 0, i.e. it accepts client requests on its listener, not merely TCP connections.
 */
function apiVersionsOk(port: number): Promise<boolean> {
  const clientId = Buffer.from('omni-engines');
  const body = Buffer.alloc(2 + 2 + 4 + 2 + clientId.length);
  body.writeInt16BE(18, 0);
  body.writeInt16BE(0, 2);
  body.writeInt32BE(7, 4);
  body.writeInt16BE(clientId.length, 8);
  clientId.copy(body, 10);
  const size = Buffer.alloc(4);
  size.writeInt32BE(body.length, 0);
  return new Promise((done) => {
    const socket = new Socket();
    let reply = Buffer.alloc(0);
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(2000, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('close', () => finish(false));
    socket.on('data', (chunk) => {
      reply = Buffer.concat([reply, chunk]);
      // size, correlation id, error code
      if (reply.length >= 10) finish(reply.readInt32BE(4) === 7 && reply.readInt16BE(8) === 0);
    });
    socket.connect(port, '127.0.0.1', () => socket.write(Buffer.concat([size, body])));
  });
}

/**
 * A cluster id as Kafka's StorageTool random-uuid makes one (a version-4 UUID, base64url without padding,
 * never starting with "-" since that reads as an option), without a JVM start of its own.
 */
function clusterId(): string {
  for (;;) {
    const bytes = randomBytes(16);
    bytes[6] = (bytes[6]! & 0x0f) | 0x40;
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    const id = bytes.toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

async function formatStorage(
  java: string,
  dataDir: string,
  properties: string,
  logFile: string,
): Promise<void> {
  const classPath = `${lib()}/*`;
  await runStep(
    java,
    [
      '-Xmx256m',
      '-XX:+UseSerialGC',
      '-XX:TieredStopAtLevel=1',
      `-Dlog4j2.configurationFile=${log4jConfig()}`,
      '-cp',
      classPath,
      'kafka.tools.StorageTool',
      'format',
      '--standalone',
      '-t',
      clusterId(),
      '-c',
      properties,
    ],
    { logFile, what: `formatting Kafka's storage in ${dataDir}` },
  );
}

export const kafka: Engine = {
  name: 'kafka',
  version: VERSION,

  missing() {
    if (isFile(marker())) {
      if (!javaBinary()) return `Kafka ${VERSION} needs Java ${JAVA_MAJOR} or newer, and none was found.`;
      return null;
    }
    if (!onPath('mvn')) return `Kafka ${VERSION} is provisioned with Maven, and mvn is not on the PATH.`;
    if (!javaBinary()) return `Kafka ${VERSION} needs Java ${JAVA_MAJOR} or newer, and none was found.`;
    return `Kafka ${VERSION} is not provisioned: run \`npm run engines -- provision\`.`;
  },

  async provision(log) {
    if (isFile(marker())) return;
    if (!onPath('mvn'))
      throw new EngineError(`Kafka ${VERSION} is provisioned with Maven, and mvn is not on the PATH.`);
    const java = javaBinary();
    if (!java)
      throw new EngineError(`Kafka ${VERSION} needs Java ${JAVA_MAJOR} or newer, and none was found.`);
    ensureDir(home());
    const logFile = join(home(), 'provision.log');
    log(`resolving Kafka ${VERSION} and its dependencies with Maven; output in ${logFile}`);
    writeFileSync(join(home(), 'pom.xml'), POM);
    writeFileSync(log4jConfig(), LOG4J);
    // Copied beside lib/ and renamed, so an interrupted copy never looks complete.
    const partial = `${lib()}.partial`;
    rmSync(partial, { recursive: true, force: true });
    await runStep('mvn', ['-q', '-B', 'dependency:copy-dependencies', `-DoutputDirectory=${partial}`], {
      cwd: home(),
      env: { ...process.env, JAVA_HOME: join(java, '../..') },
      logFile,
      what: `mvn dependency:copy-dependencies for Kafka ${VERSION}`,
    });
    rmSync(lib(), { recursive: true, force: true });
    renameSync(partial, lib());
    writeFileSync(marker(), `${new Date().toISOString()}\n`);
  },

  async start({ dataDir, ports: given, log }) {
    const missing = kafka.missing();
    if (missing) throw new EngineError(missing);
    const java = javaBinary() as string;
    ensureDir(dataDir);
    const ports = await portsFor(['kafka', 'controller'], given);
    const properties = join(dataDir, 'server.properties');
    writeFileSync(properties, serverProperties(dataDir, ports));
    const logFile = join(dataDir, 'kafka.log');
    if (!isFile(join(dataDir, 'log', 'meta.properties'))) {
      log?.(`kafka: formatting a new storage folder in ${dataDir}`);
      await formatStorage(java, dataDir, properties, logFile);
    }
    const from = sizeOf(logFile);
    const child = startDaemon(
      java,
      [
        '-Xmx512m',
        '-Xms256m',
        '-XX:+UseSerialGC',
        // The optimising JIT tier costs a shared two-core machine more start-up time than it saves on a
        // broker that carries test and development traffic.
        '-XX:TieredStopAtLevel=1',
        '-Djava.awt.headless=true',
        `-Dlog4j2.configurationFile=${log4jConfig()}`,
        '-cp',
        `${lib()}/*`,
        'kafka.Kafka',
        properties,
      ],
      { cwd: dataDir, logFile },
    );
    try {
      await waitUntil(
        async () =>
          /Kafka Server started/.test(logSince(logFile, from)) &&
          (await apiVersionsOk(ports.kafka as number)),
        { what: `Kafka ${VERSION}`, pid: child.pid, logFile, timeoutMs: 90_000 },
      );
    } catch (err) {
      killPid(child.pid);
      throw err;
    }
    const brokers = `127.0.0.1:${ports.kafka}`;
    log?.(`kafka: ${brokers}`);
    return {
      name: 'kafka',
      pids: [child.pid],
      ports,
      endpoints: { kafka: brokers },
      env: { EVENT_BUS: 'kafka', KAFKA_BROKERS: brokers },
      logFile,
      // A broker flushing and closing its logs cleanly can take a while; a kill would cost log recovery.
      stop: () => stopPid(child.pid, 30_000),
      kill: () => killPid(child.pid),
    };
  },
};
