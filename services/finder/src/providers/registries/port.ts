// A collecting society's registrations, as the scanner asks them. Today only snapshot files answer (no registry
// can be reached from our machines); a live connector implements the same interface and says live: true.

export type RegistryId = 'soundexchange' | 'ppl' | 'impel';
export const REGISTRY_IDS: readonly RegistryId[] = ['soundexchange', 'ppl', 'impel'];

/** How results and messages name each registry. */
export const REGISTRY_NAMES: Record<RegistryId, string> = {
  soundexchange: 'SoundExchange',
  ppl: 'PPL',
  impel: 'IMPEL',
};

/** What a registry holds about one recording or work; fields are absent when the registry left them blank. */
export interface Registration {
  registered: boolean;
  owner?: string;
  /** Performers on the registration (recordings), as written there. */
  performers?: string[];
  /** Writers on the registration (works). */
  writers?: string[];
}

export interface WorkQuery {
  /** Canonical ISWC (T + 10 digits) when the work has a valid one. */
  iswc?: string;
  title: string;
  writers: string[];
}

export interface RegistryConnector {
  id: RegistryId;
  /** 'recording' registries (neighbouring rights) are asked by ISRC; 'work' registries (publishing) by work. */
  kind: 'recording' | 'work';
  /** YYYY-MM-DD: the date the answers are as of. */
  snapshotDate: string;
  live: boolean;
  lookupRecording(isrc: string): Registration | Promise<Registration>;
  lookupWork(work: WorkQuery): Registration | Promise<Registration>;
}

/**
 * How an adapter turns what a registry file holds into lookup keys: the domain's identifier and name rules,
 * handed in by the service's wiring (providers do not import the domain; see domain/registry-keys.ts).
 */
export interface RegistryKeys {
  isrc(text: string): { ok: true; normalised: string } | { ok: false; problem: string };
  iswc(text: string): { ok: true; normalised: string } | { ok: false; problem: string };
  name(text: string): string;
}
