// catalog.Release + staged files + the store's profile → the ERN builders' input (domain/ddex/model.ts).
// Pure: every fact comes in as an argument, so a package made twice from the same facts is the same.
import type { catalog } from '@omni/proto';
import type {
  ErnContributor,
  ErnContributorRole,
  ErnDeal,
  ErnMessageHeader,
  ErnMessagingParty,
  ErnNewReleaseInput,
  ErnPurgeInput,
  ErnRelease,
  ErnReleaseType,
  ErnRightsLine,
} from '../ddex/model';
import type { StoreProfile } from '../stores/profile';
import { audioUri, coverUri } from './layout';
import type { PackageFiles } from './model';

const RELEASE_TYPES: Record<string, ErnReleaseType> = { single: 'Single', ep: 'EP', album: 'Album' };
const AUDIO_CODECS = { wav: 'PCM', flac: 'FLAC' } as const;
const IMAGE_CODECS = { jpeg: 'JPEG', jpg: 'JPEG', png: 'PNG' } as const;

export class PackageError extends Error {
  override name = 'PackageError';
}

export function messageHeader(
  sender: ErnMessagingParty,
  profile: StoreProfile,
  ids: { messageId: string; releaseId: string },
  createdAt: string,
): ErnMessageHeader {
  return {
    messageId: ids.messageId,
    threadId: ids.releaseId,
    sender,
    recipient: { partyId: profile.partyId, name: profile.partyName },
    createdAt,
    control: profile.messageControl,
  };
}

/**
 * The deal start: the release date when there is one; otherwise the day the store first got the release
 * (`firstSentAt`), so a re-sent deal of a live release starts in the past and never moves.
 */
export function dealStart(release: catalog.Release, firstSentAt: string): string {
  return release.releaseDate || firstSentAt.slice(0, 10);
}

/**
 * The store's deals for this release: a worldwide deal leaves out the countries the artist excluded; a deal
 * for named countries keeps those not excluded (none left: no deal there).
 */
export function dealsFor(
  profile: StoreProfile,
  startDate: string,
  excluded: readonly string[] = [],
): ErnDeal[] {
  const out = new Set(excluded);
  return profile.deals.flatMap((d): ErnDeal[] => {
    const worldwide = d.territories.includes('Worldwide');
    const territories = worldwide ? ['Worldwide'] : d.territories.filter((t) => !out.has(t));
    if (territories.length === 0) return [];
    return [
      {
        territories,
        ...(worldwide && out.size > 0 ? { excludedTerritories: [...out].sort() } : {}),
        commercialModels: [...d.commercialModels],
        useTypes: [...d.useTypes],
        startDate,
      },
    ];
  });
}

function rightsLine(text: string | undefined, fallbackYear: number, fallbackOwner: string): ErnRightsLine {
  const cleaned = (text ?? '').replace(/^[℗©]\s*/, '').trim();
  const year = Number(/^(\d{4})\b/.exec(cleaned)?.[1] ?? fallbackYear);
  return { year, text: cleaned || `${fallbackYear} ${fallbackOwner}` };
}

/** A track's own credits when it has any, the release's otherwise (the single-track form has one set). */
function creditsOf(track: catalog.Track, release: catalog.Release): catalog.Credits | undefined {
  const own = track.credits;
  const any =
    own &&
    (own.writers.length > 0 || own.producers.length > 0 || own.musicians.length > 0 || own.engineer.trim());
  return any ? own : release.metadata?.credits;
}

function contributors(
  credits: catalog.Credits | undefined,
  remixers: readonly string[] = [],
): ErnContributor[] {
  const byName = new Map<string, Set<ErnContributorRole>>();
  const add = (names: readonly string[], role: ErnContributorRole) => {
    for (const raw of names) {
      const name = raw.trim();
      if (!name) continue;
      const roles = byName.get(name) ?? new Set<ErnContributorRole>();
      roles.add(role);
      byName.set(name, roles);
    }
  };
  add(credits?.writers ?? [], 'ComposerLyricist');
  add(credits?.producers ?? [], 'StudioProducer');
  add(credits?.musicians ?? [], 'Performer');
  add(credits?.engineer ? [credits.engineer] : [], 'Engineer');
  add(remixers, 'Remixer');
  return [...byName].map(([name, roles]) => ({ name, roles: [...roles] }));
}

const extOf = (format: string) => format.toLowerCase().replace('jpeg', 'jpg');

/** The release as DDEX describes it, with each resource pointing at its file in the release folder. */
export function ernRelease(release: catalog.Release, files: PackageFiles, startDate: string): ErnRelease {
  const type = RELEASE_TYPES[release.releaseType];
  if (!type) throw new PackageError(`release type "${release.releaseType}" has no DDEX ReleaseType`);
  if (!release.upc) throw new PackageError('the release has no UPC');
  const artist = release.artist?.name ?? '';
  const owner = release.label || artist;
  const year = Number((release.releaseDate || release.createdAt || startDate).slice(0, 4));
  // The form's two lines carry their own symbol (℗ the recording, © the work); without one, the
  // copyright line is the recording's ℗ and the publishing line the ©.
  const lines = [release.metadata?.legal?.copyrightLine ?? '', release.metadata?.legal?.publishingLine ?? ''];
  const phonographic =
    lines.find((l) => l.trim().startsWith('℗')) ?? lines.find((l) => !l.trim().startsWith('©'));
  const copyright = lines.find((l) => l.trim().startsWith('©')) ?? lines.find((l) => l !== phonographic);
  const pLine = rightsLine(phonographic, year, owner);
  const cLine = rightsLine(copyright, year, owner);
  const recordings = release.tracks.map((t) => {
    const staged = files.audio.get(t.id);
    if (!staged) throw new PackageError(`track "${t.title}" has no staged master`);
    const format = (staged.format ?? t.audioFormat?.format ?? '').toLowerCase();
    const codec = AUDIO_CODECS[format as keyof typeof AUDIO_CODECS];
    if (!codec) throw new PackageError(`track "${t.title}": master format "${format}" cannot be delivered`);
    // The release's own featured artists and remixers are every track's too.
    const all = [...(release.featuredArtists ?? []), ...(t.featuredArtists ?? [])];
    const named = (remixer: boolean) => [
      ...new Set(all.filter((a) => (a.role === 'remixer') === remixer).map((a) => a.name)),
    ];
    const featured = named(false);
    const remixers = named(true);
    return {
      isrc: t.isrc,
      title: t.title,
      artists: [
        { name: artist, role: 'MainArtist' as const },
        ...featured.map((name) => ({ name, role: 'FeaturedArtist' as const })),
      ],
      contributors: contributors(creditsOf(t, release), remixers),
      ...(t.language || release.language ? { language: t.language || release.language } : {}),
      discNumber: t.discNumber || 1,
      durationSeconds: Math.max(1, Math.round(t.durationSeconds)),
      pLine,
      explicit: t.explicit,
      audio: {
        codec,
        ...(t.audioFormat?.sampleRate ? { sampleRateHz: t.audioFormat.sampleRate } : {}),
        ...(t.audioFormat?.bitDepth ? { bitsPerSample: t.audioFormat.bitDepth } : {}),
        ...(t.audioFormat?.channels ? { channels: t.audioFormat.channels } : {}),
        file: {
          uri: audioUri(release.upc, t.isrc, extOf(format)),
          hash: { algorithm: 'SHA-256' as const, value: staged.sha256 },
          sizeBytes: staged.size,
        },
      },
    };
  });
  const imageFormat = files.coverFacts.format.toLowerCase();
  const imageCodec = IMAGE_CODECS[imageFormat as keyof typeof IMAGE_CODECS];
  if (!imageCodec) throw new PackageError(`cover format "${imageFormat}" cannot be delivered`);
  return {
    upc: release.upc,
    type,
    title: release.title,
    artists: [
      { name: artist, role: 'MainArtist' },
      ...[
        ...new Set((release.featuredArtists ?? []).filter((a) => a.role !== 'remixer').map((a) => a.name)),
      ].map((name) => ({ name, role: 'FeaturedArtist' as const })),
    ],
    ...(release.language ? { language: release.language } : {}),
    label: release.label || artist,
    genre: release.genre || release.tracks[0]?.genre || 'Other',
    pLine,
    cLine,
    releaseDate: release.releaseDate || startDate,
    explicit: release.tracks.some((t) => t.explicit),
    recordings,
    cover: {
      proprietaryId: `art-${release.upc}`,
      codec: imageCodec,
      widthPx: files.coverFacts.width,
      heightPx: files.coverFacts.height,
      file: {
        uri: coverUri(release.upc, extOf(imageFormat)),
        hash: { algorithm: 'SHA-256', value: files.cover.sha256 },
        sizeBytes: files.cover.size,
      },
    },
  };
}

export function newReleaseInput(
  header: ErnMessageHeader,
  release: ErnRelease,
  deals: ErnDeal[],
): ErnNewReleaseInput {
  return { header, release, deals };
}

export function purgeInput(header: ErnMessageHeader, release: catalog.Release): ErnPurgeInput {
  return { header, upc: release.upc, title: release.title };
}
