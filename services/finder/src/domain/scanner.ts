// The scan's brain: recordings stream in one at a time; only the findings and the catalogue's compact keys are
// kept. finish() gives the spec's result (§3) with the evidence and value basis behind each finding.
import type { FinderResult, Finding } from '@omni/proto/api';
import { FINDER_MESSAGES } from '@omni/proto/api';
import { REGISTRY_IDS, REGISTRY_NAMES, type RegistryConnector } from '../providers/registries/port';
import { CatalogueIndex } from './gaps/catalogue-index';
import { recordingGaps } from './gaps/recording-gaps';
import { checkIsrc } from './identifiers';
import { missingRegistrations } from './registrations';
import type { CatalogueRecording, PlayCount, Scanner } from './scan-model';
import { estimateValue, round } from './value/estimate';

export interface ScannerOptions {
  /** The registries that can be asked; one absent here is reported as not checked, never as not registered. */
  registries: RegistryConnector[];
  /** Plays known for a recording, by canonical ISRC (empty when none). */
  plays: (isrc: string) => PlayCount[] | Promise<PlayCount[]>;
  now: Date;
}

export function createScanner(options: ScannerOptions): Scanner {
  const index = new CatalogueIndex();
  const findings: Finding[] = [];
  let scanned = 0;
  const unchecked = REGISTRY_IDS.filter((id) => !options.registries.some((connector) => connector.id === id));
  const notChecked = unchecked.map(
    (id) => `Not checked against ${REGISTRY_NAMES[id]}: no snapshot of its registrations is available.`,
  );

  return {
    async add(recording: CatalogueRecording) {
      scanned += 1;
      const gaps = [...recordingGaps(recording), ...index.check(recording)];
      const registrations = await missingRegistrations(recording, options.registries);
      if (gaps.length === 0 && registrations.length === 0) return;
      const isrc = checkIsrc(recording.isrc);
      const plays = isrc.ok ? await options.plays(isrc.normalised) : [];
      const value = estimateValue(
        [...gaps.map((gap) => gap.blocks), ...registrations.map((missing) => missing.blocks)],
        plays,
        options.now,
      );
      findings.push({
        recording_title: recording.title,
        main_artist: recording.mainArtist,
        isrc: isrc.ok ? isrc.normalised : recording.isrc,
        missing_registrations: registrations.map((missing) => missing.text),
        metadata_gaps: gaps.map((gap) => gap.text),
        recommended_actions: unique([
          ...gaps.map((gap) => gap.action),
          ...registrations.map((m) => m.action),
        ]),
        value_at_risk_usd: value.valueUsd,
        release_id: recording.releaseId,
        track_id: recording.trackId,
        evidence: [
          ...gaps.map((gap) => gap.evidence),
          ...registrations.map((m) => m.evidence),
          ...notChecked,
        ],
        value_basis: value.basis,
      });
    },
    finish(): FinderResult {
      findings.sort(
        (a, b) =>
          (b.value_at_risk_usd ?? -1) - (a.value_at_risk_usd ?? -1) ||
          a.recording_title.localeCompare(b.recording_title),
      );
      const total = findings.reduce((sum, finding) => sum + (finding.value_at_risk_usd ?? 0), 0);
      return {
        scanned,
        flagged: findings.length,
        estimated_value_at_risk_usd: round(total, 2),
        disclaimer: FINDER_MESSAGES.disclaimer,
        findings,
        checked_against: options.registries.map((connector) => ({
          registry: REGISTRY_NAMES[connector.id],
          snapshot_date: connector.snapshotDate,
          live: connector.live,
        })),
      };
    },
  };
}

const unique = (lines: string[]): string[] => [...new Set(lines)];
