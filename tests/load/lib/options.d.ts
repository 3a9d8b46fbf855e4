// Types for the k6 option helpers (plain JavaScript, because k6 runs them as they are).
export interface Stage {
  duration: string;
  target: number;
}
export function parseStages(spec: string): Stage[];
export function scenarioFromEnv(
  env: Record<string, string | undefined>,
  defaults: { vus: number; duration: string },
): Record<string, unknown>;
export interface K6Options {
  scenarios: Record<string, Record<string, unknown>>;
  thresholds: Record<string, string[]>;
  summaryTrendStats: string[];
  noConnectionReuse: boolean;
}
export function buildOptions(
  env: Record<string, string | undefined>,
  settings: { scenario: string; p99Ms: number; vus?: number; duration?: string; maxErrorRate?: number },
): K6Options;
export function baseUrl(env: Record<string, string | undefined>): string;
