// FLAC masters for the fingerprint tests: a WAV encoded by the flac that scripts/fpcalc.mjs provisions (the
// same tool the check decodes with), so no FLAC encoder of the tests' own.
import { spawnSync } from 'node:child_process';
import { locateFlac } from '../../src/providers/fingerprinter/flac';
import { toolEnv } from '../../src/providers/fingerprinter/locate';

/** Null when flac is provisioned; otherwise why the FLAC tests are skipped. */
export function flacMissing(): string | null {
  return locateFlac() ? null : 'flac is not provisioned (node scripts/fpcalc.mjs)';
}

/** Encodes the WAV at `wav` to a FLAC at `out`, and returns `out`. */
export function encodeFlac(wav: string, out: string): string {
  const flac = locateFlac();
  if (!flac) throw new Error('flac is not provisioned');
  const run = spawnSync(flac.binary, ['-s', '-f', '-o', out, wav], { env: toolEnv(flac), encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`flac did not encode ${wav}: ${run.stderr}`);
  return out;
}
