/** Runtime configuration served next to the shell: which manifest URL each remote has. */
export interface AppConfig {
  remotes: Record<string, string>;
}

export const APP_CONFIG_URL = '/app-config.json';

/** Validates by hand (not zod) to keep the shell's first chunk small; the shape is tiny. */
export function parseAppConfig(raw: unknown): AppConfig {
  if (typeof raw !== 'object' || raw === null || !('remotes' in raw)) {
    throw new Error('app-config.json has no "remotes" object');
  }
  const { remotes } = raw as { remotes: unknown };
  if (typeof remotes !== 'object' || remotes === null || Array.isArray(remotes)) {
    throw new Error('app-config.json "remotes" must be an object of name → manifest URL');
  }
  const result: Record<string, string> = {};
  for (const [name, url] of Object.entries(remotes)) {
    if (typeof url !== 'string' || url === '') {
      throw new Error(`app-config.json: remote "${name}" needs a manifest URL`);
    }
    result[name] = url;
  }
  return { remotes: result };
}

export async function fetchAppConfig(): Promise<AppConfig> {
  const response = await fetch(APP_CONFIG_URL, {
    headers: { accept: 'application/json' },
    cache: 'no-cache',
  });
  if (!response.ok) throw new Error(`Could not load ${APP_CONFIG_URL} (HTTP ${response.status})`);
  return parseAppConfig(await response.json());
}
