// The scan's brain: recordings stream in one at a time; only the findings and the catalogue's compact keys are
// kept. finish() gives the spec's result (§3) with the evidence and value basis behind each finding.
import type { FinderResult, Finding } from '@omni/proto/api';
import { FINDER_MESSAGES } from '@omni/proto/api';
import { REGISTRY_NAMES, type RegistryConnector } from '../providers/registries/port';
import { CatalogueIndex } from './gaps/catalogue-index';
import type { Gap } from './gaps/gap';
import { recordingGaps } from './gaps/recording-gaps';
import { createReader, type ReadRecording } from './read-recording';
import { type MissingRegistration, missingRegistrations } from './registrations';
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
  const readRecording = createReader();
  const findings: Finding[] = [];
  let scanned = 0;

  function withPlays(read: ReadRecording, gaps: Gap[], registrations: MissingRegistration[]) {
    if (gaps.length === 0 && registrations.length === 0) return;
    const plays = read.isrc.ok ? options.plays(read.isrc.normalised) : [];
    if (plays instanceof Promise) return plays.then((known) => record(read, gaps, registrations, known));
    record(read, gaps, registrations, plays);
  }

  function record(
    read: ReadRecording,
    gaps: Gap[],
    registrations: MissingRegistration[],
    plays: PlayCount[],
  ) {
    const { recording, isrc } = read;
    const value = estimateValue(
      [...gaps, ...registrations].map((item) => item.blocks),
      plays,
      options.now,
    );
    findings.push({
      recording_title: recording.title,
      main_artist: recording.mainArtist,
      isrc: isrc.ok ? isrc.normalised : recording.isrc,
      missing_registrations: registrations.map((missing) => missing.text),
      metadata_gaps: gaps.map((gap) => gap.text),
      recommended_actions: [...new Set([...gaps, ...registrations].map((item) => item.action))],
      value_at_risk_usd: value.valueUsd,
      release_id: recording.releaseId,
      track_id: recording.trackId,
      // A registry that was not checked is said once for the whole result (checked_against), not here.
      evidence: [...gaps, ...registrations].map((item) => item.evidence),
      value_basis: value.basis,
    });
  }

  return {
    // Synchronous while the registries and plays answer at once (snapshots, plays in memory): a promise per
    // recording would cost a catalogue-sized pile of microtasks for nothing.
    add(recording: CatalogueRecording) {
      scanned += 1;
      const read = readRecording(recording);
      const gaps = [...recordingGaps(read), ...index.check(read)];
      const registrations = missingRegistrations(read, options.registries);
      if (registrations instanceof Promise)
        return registrations.then((found) => withPlays(read, gaps, found));
      return withPlays(read, gaps, registrations);
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
        disclaimer:
          options.registries.length > 0 ? FINDER_MESSAGES.disclaimer : FINDER_MESSAGES.disclaimerNoRegistries,
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
