// The real engines cluster mode and the real-engine test suites run on. The first starts first and the
// others at once with its environment (Keycloak's realm mails through Mailpit; running.ts). Each file says how
// its engine is provisioned (downloaded or built once into enginesHome()) and started as a process.
import { ferretdb } from './ferretdb';
import { jaeger } from './jaeger';
import { kafka } from './kafka';
import { keycloak } from './keycloak';
import { mailpit } from './mailpit';
import { s3 } from './s3';
import type { Engine, EngineName } from './support';

export const ENGINES: readonly Engine[] = [mailpit, jaeger, kafka, ferretdb, s3, keycloak];

export function engine(name: EngineName): Engine {
  const found = ENGINES.find((e) => e.name === name);
  if (!found) throw new Error(`unknown engine ${name}`);
  return found;
}

export * from './support';
