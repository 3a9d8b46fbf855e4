// A clean recording (nothing a scan should flag) and helpers to plant one gap at a time.
import type { CatalogueRecording } from '../../src/domain/scan-model';

/** Credits a society can pay on: writers with shares, performers with roles (the documented conventions). */
export const CLEAN_CREDITS: CatalogueRecording['credits'] = {
  producers: ['Cy Park'],
  writers: ['Ana Diaz (60%)', 'Cy Park (40%)'],
  musicians: ['Ana Diaz (vocals)', 'Cy Park — guitar'],
  engineer: 'Dee Moss',
  instruments: 'vocals, guitar',
};

/** Legal lines and codes that pass every rule: a ℗ line with year and owner, valid ISWC, IPIs and ISNI. */
export const CLEAN_LEGAL: CatalogueRecording['legal'] = {
  copyrightLine: '℗ 2024 Northern Lights Records',
  publishingLine: '© 2024 Diaz Songs',
  pro: 'ASCAP',
  ipi: '00014107338, 00014107338',
  iswc: 'T-034.524.680-1',
  isni: '0000 0001 2103 2683',
};

let next = 0;

export function cleanRecording(overrides: Partial<CatalogueRecording> = {}): CatalogueRecording {
  next += 1;
  const base: CatalogueRecording = {
    releaseId: `rel-${next}`,
    releaseTitle: `Release ${next}`,
    releaseType: 'single',
    releaseDate: '2024-05-01',
    upc: '036000291452',
    label: 'Northern Lights Records',
    mainArtist: 'Ana Diaz',
    trackId: `trk-${next}`,
    trackNumber: 1,
    title: `Song number ${next}`,
    isrc: `USS1Z24${String(next).padStart(5, '0')}`,
    durationSeconds: 180 + (next % 60),
    credits: { ...CLEAN_CREDITS },
    legal: { ...CLEAN_LEGAL },
  };
  return {
    ...base,
    ...overrides,
    credits: { ...base.credits, ...overrides.credits },
    legal: { ...base.legal, ...overrides.legal },
  };
}
