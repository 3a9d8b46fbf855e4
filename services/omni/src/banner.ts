// What a newcomer needs to see after `npm start`: where the platform is, which adapter each port got,
// and which services run.
import type { Platform, ServiceModule } from '@omni/platform';
import { initialAdminFile, SEEDED_ADMIN_EMAIL } from '@omni/service-identity';
import { MODULES } from './modules';

/** How to sign in as the seeded admin, and where the dev mailbox is (never the password itself). */
function accountLines(platform: Platform): string[] {
  const { config } = platform;
  const lines: string[] = [];
  if (config.services.includes('identity')) {
    const file = initialAdminFile(config.dataDir);
    if (config.env.OMNI_ADMIN_PASSWORD)
      lines.push(`  admin: sign in as ${SEEDED_ADMIN_EMAIL} with the password in OMNI_ADMIN_PASSWORD`);
    else if (file) lines.push(`  admin: sign in as ${SEEDED_ADMIN_EMAIL} with the password in ${file}`);
    else if (config.env.IDENTITY_PROVIDER === 'keycloak')
      lines.push('  admin: none seeded (Keycloak); create one with `npm run create-admin -- <email>`');
    lines.push('         more admins: npm run create-admin -- <email> [password]');
  }
  if (config.services.includes('gateway') && config.env.MAIL === 'embedded')
    lines.push(
      `  mail:  nothing is sent; read verification and sign-in links at ${config.publicUrl}/dev/mailbox`,
    );
  return lines.length ? [...lines, ''] : [];
}

/** A service's declared edges: `→ storage` for calls, `⇐ release.created` for events it consumes. */
function edges(module: ServiceModule): string {
  const calls = module.calls.length ? `  → ${module.calls.join(', ')}` : '';
  const consumes = module.consumes.length ? `  ⇐ ${module.consumes.join(', ')}` : '';
  return `${calls}${consumes}`;
}

export function printBanner(platform: Platform, ms: number): void {
  const { config } = platform;
  const lines = [
    '',
    `  Omni is running (${config.services.length === 8 ? 'all services' : config.services.join(', ')}) in ${ms} ms`,
    '',
    `  → ${config.services.includes('gateway') ? config.publicUrl : platform.url}`,
    `    health: ${platform.url}/healthz`,
    '',
    ...accountLines(platform),
    '  adapters:',
    ...platform.ports.describe().map((l) => `    ${l}`),
    ...platform.services.flatMap((s) =>
      Object.values(MODULES[s].providers ?? {}).map((describe) => `    ${describe(config)}`),
    ),
    '',
    '  services (in start order, with what each calls and consumes):',
    ...platform.services.map((s) => {
      const b = config.bound.get(s)!;
      return `    ${s.padEnd(9)} grpc :${b.grpc}  http :${b.http}${edges(MODULES[s])}`;
    }),
    '',
  ];
  console.log(lines.join('\n'));
}
