// What a newcomer needs to see after `npm start`: where the platform is, which adapter each port got,
// and which services run.
import type { Platform } from '@omni/platform';

export function printBanner(platform: Platform, ms: number): void {
  const { config } = platform;
  const lines = [
    '',
    `  Omni is running (${config.services.length === 8 ? 'all services' : config.services.join(', ')}) in ${ms} ms`,
    '',
    `  → ${config.services.includes('gateway') ? config.env.PUBLIC_URL : platform.url}`,
    `    health: ${platform.url}/healthz`,
    '',
    '  adapters:',
    ...platform.ports.describe().map((l) => `    ${l}`),
    '',
    '  services:',
    ...config.services.map((s) => {
      const b = config.bound.get(s)!;
      return `    ${s.padEnd(9)} grpc :${b.grpc}  http :${b.http}`;
    }),
    '',
  ];
  console.log(lines.join('\n'));
}
