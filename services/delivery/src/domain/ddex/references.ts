// The message's local references: parties P1…, resources A1…, technical details T1…, the release R1. One
// registry per message, so every reference used in the release or the deals points at something declared.
import type { ErnNewReleaseInput } from './model';

export const RELEASE_REFERENCE = 'R1';

export interface ErnParty {
  reference: string;
  name: string;
}

export interface ErnReferences {
  /** Parties in first-mention order: artists, contributors, then the label. */
  parties: ErnParty[];
  party(name: string): string;
  /** A1… for the recordings in play order, then the cover. */
  recording(index: number): string;
  cover: string;
  recordingDetails(index: number): string;
  coverDetails: string;
  /** R2… for the TrackRelease of each recording, in play order (R1 is the release). */
  trackRelease(index: number): string;
}

export function assignReferences(input: Pick<ErnNewReleaseInput, 'release'>): ErnReferences {
  const { release } = input;
  // One party per distinct name: an artist who also wrote the song is one party with two roles.
  const byName = new Map<string, ErnParty>();
  const add = (name: string) => {
    if (!byName.has(name)) byName.set(name, { reference: `P${byName.size + 1}`, name });
  };
  for (const a of release.artists) add(a.name);
  for (const r of release.recordings) {
    for (const a of r.artists) add(a.name);
    for (const c of r.contributors) add(c.name);
  }
  add(release.label);

  const count = release.recordings.length;
  return {
    parties: [...byName.values()],
    party(name) {
      const party = byName.get(name);
      if (!party) throw new Error(`no DDEX party for "${name}"`);
      return party.reference;
    },
    recording: (index) => `A${index + 1}`,
    cover: `A${count + 1}`,
    recordingDetails: (index) => `T${index + 1}`,
    coverDetails: `T${count + 1}`,
    trackRelease: (index) => `R${index + 2}`,
  };
}
