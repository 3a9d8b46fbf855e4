// The metadata-gap rules on a seeded catalogue: every planted gap is found once, on the recording it was
// planted on, and nothing is flagged on a clean recording (including the look-alikes a careless rule flags).
import type { FinderResult } from '@omni/proto/api';
import { createScanner } from '../src/domain';
import type { CatalogueRecording } from '../src/domain/scan-model';
import { cleanRecording } from './support/recordings';

interface Planted {
  recording: CatalogueRecording;
  /** The metadata gaps this recording must show, and only these. */
  gaps: RegExp[];
}

function seededCatalogue(): { recordings: CatalogueRecording[]; planted: Planted[] } {
  const clean = Array.from({ length: 40 }, () => cleanRecording());
  const [a, b, c, d, e, f] = clean;
  if (!a || !b || !c || !d || !e || !f) throw new Error('seed');
  const plant = (overrides: Partial<CatalogueRecording>, ...gaps: RegExp[]): Planted => ({
    recording: cleanRecording(overrides),
    gaps,
  });
  const withCredits = (credits: Partial<CatalogueRecording['credits']>) =>
    ({ credits }) as unknown as Partial<CatalogueRecording>;
  const withLegal = (legal: Partial<CatalogueRecording['legal']>) =>
    ({ legal }) as unknown as Partial<CatalogueRecording>;
  const planted: Planted[] = [
    plant({ isrc: '' }, /^No ISRC$/),
    plant({ isrc: 'US-S1Z-24-0001' }, /^Malformed ISRC "US-S1Z-24-0001"$/),
    plant({ upc: '' }, /^No UPC on the release$/),
    plant({ upc: '036000291453' }, /^Malformed UPC/),
    plant(withLegal({ iswc: 'T-034.524.680-2' }), /^Malformed ISWC/),
    plant(withLegal({ ipi: '00014107339, 00014107338' }), /^Malformed IPI "00014107339"$/),
    plant(withLegal({ isni: '0000 0001 2103 2684' }), /^Malformed ISNI/),
    // The same ISRC as clean recording a, on a different recording.
    plant(
      { isrc: a.isrc, title: 'A different song' },
      new RegExp(`^ISRC ${a.isrc} is also on a different recording$`),
    ),
    // The same ISRC and title as clean recording f, but 30 s longer: another recording (an edit).
    plant(
      { isrc: f.isrc, title: f.title, durationSeconds: f.durationSeconds + 30 },
      new RegExp(`^ISRC ${f.isrc} is also on a different recording$`),
    ),
    // Clean recording b again (same title, artist, within 2 s) under a new ISRC.
    plant(
      { title: b.title, durationSeconds: b.durationSeconds + 1.5, isrc: 'GBAYE2600001' },
      new RegExp(`^Same recording also under ISRC ${b.isrc}$`),
    ),
    plant(withCredits({ musicians: [] }), /^No performer line-up$/),
    plant(
      withCredits({ musicians: ['Ana Diaz (vocals)', 'Cy Park'] }),
      /^Musicians without a role: Cy Park$/,
    ),
    plant({ title: 'Night Drive (feat. Bo Lee)' }, /^Featured artist not in the line-up: Bo Lee$/),
    // Clean recording c again on a compilation, its guitarist dropped.
    plant(
      {
        isrc: c.isrc,
        title: c.title,
        durationSeconds: c.durationSeconds,
        credits: { ...c.credits, musicians: ['Ana Diaz (vocals)'] },
      },
      /^Performer credited elsewhere but missing here: Cy Park$/,
    ),
    plant(withLegal({ copyrightLine: '' }), /^No ℗ line/),
    plant(withLegal({ copyrightLine: '℗ Northern Lights Records' }), /^℗ line has no year$/),
    plant(withCredits({ writers: [] }), /^No writers credited$/),
    plant(withLegal({ ipi: '00014107338' }), /^Writers without an IPI number: Cy Park$/),
    plant(withCredits({ writers: ['Ana Diaz', 'Cy Park (40%)'] }), /^Writers without a share: Ana Diaz$/),
    plant(
      withCredits({ writers: ['Ana Diaz (50%)', 'Cy Park (40%)'] }),
      /^Writers' shares add up to 90%, not 100%$/,
    ),
    plant(withLegal({ iswc: '' }), /^No ISWC for the song$/),
  ];
  // Look-alikes that are not gaps: the same recording on an album (same ISRC, same line-up), a remix and a
  // live take under their own ISRCs, other spellings of roles, ℗ lines and IPIs, a sole writer without a share.
  const lookAlikes = [
    cleanRecording({
      isrc: d.isrc.toLowerCase(),
      title: d.title.toUpperCase(),
      durationSeconds: d.durationSeconds + 1,
      releaseTitle: 'The Album',
    }),
    cleanRecording({ title: `${e.title} (Remix)`, durationSeconds: e.durationSeconds }),
    cleanRecording({ title: e.title, durationSeconds: e.durationSeconds + 40 }),
    cleanRecording({
      title: 'Late (feat. Bo Lee)',
      ...withCredits({ musicians: ['Ana Diaz (vocals)', 'feat. Bo Lee — vocals'] }),
    }),
    cleanRecording(withLegal({ copyrightLine: '(P) 2023 Northern Lights Records' })),
    cleanRecording(withCredits({ musicians: ['Ana Diaz - vocals', 'Cy Park – guitar'] })),
    cleanRecording(withLegal({ copyrightLine: 'P 2023 Northern Lights Records' })),
    cleanRecording(withLegal({ ipi: 'Ana Diaz: 14107338; Cy Park: 00014107338' })),
    cleanRecording({ ...withCredits({ writers: ['Ana Diaz'] }), ...withLegal({ ipi: '00014107338' }) }),
  ];
  const recordings = [...clean];
  for (const [i, p] of planted.entries()) recordings.splice(5 + i * 2, 0, p.recording);
  recordings.push(...lookAlikes);
  return { recordings, planted };
}

async function scan(recordings: CatalogueRecording[]): Promise<FinderResult> {
  const scanner = createScanner({ registries: [], plays: () => [], now: new Date('2026-11-01') });
  for (const recording of recordings) await scanner.add(recording);
  return scanner.finish();
}

describe('metadata-gap rules on a seeded catalogue', () => {
  it('finds each planted gap once, and flags nothing else', async () => {
    const { recordings, planted } = seededCatalogue();
    const result = await scan(recordings);
    expect(result.scanned).toBe(recordings.length);
    const byTrack = new Map(result.findings.map((finding) => [finding.track_id, finding]));
    for (const { recording, gaps } of planted) {
      const finding = byTrack.get(recording.trackId);
      expect({ track: recording.trackId, gaps: finding?.metadata_gaps.length }).toEqual({
        track: recording.trackId,
        gaps: gaps.length,
      });
      for (const [i, gap] of gaps.entries()) expect(finding?.metadata_gaps[i]).toMatch(gap);
      expect(finding?.release_id).toBe(recording.releaseId);
      expect(finding?.evidence.length).toBeGreaterThanOrEqual(gaps.length);
    }
    const unexpected = result.findings.filter(
      (f) => !planted.some((p) => p.recording.trackId === f.track_id),
    );
    expect(unexpected.map((f) => [f.recording_title, f.metadata_gaps])).toEqual([]);
    expect(result.flagged).toBe(planted.length);
  });

  it('says where to fix each gap: the release page and its tab', async () => {
    const { recordings, planted } = seededCatalogue();
    const result = await scan(recordings);
    for (const finding of result.findings) {
      expect(finding.recommended_actions.length).toBeGreaterThan(0);
      for (const action of finding.recommended_actions)
        expect(action).toMatch(/^On the release page of ".+" \(.+ tab\), /);
    }
    const malformed = result.findings.find((f) => f.metadata_gaps[0]?.startsWith('Malformed ISWC'));
    expect(malformed?.evidence[0]).toBe(
      'The last character of this ISWC is its check digit: it should be 1, not 2.',
    );
    expect(planted.length).toBe(21);
  });

  it('says that the IPI field covers one writer per number', async () => {
    const result = await scan([
      cleanRecording({ legal: { ipi: '00014107338' } } as Partial<CatalogueRecording>),
    ]);
    expect(result.findings[0]?.evidence[0]).toBe(
      "The IPI field holds 1 number for 2 writers (one per writer, in the writers' order); Cy Park has none.",
    );
  });
});
