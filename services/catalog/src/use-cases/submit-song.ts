// A song submitted from the console: title and artist, one audio file, and optionally the codes the
// person already has (checked, and refused when another release or track carries them); the rest is
// filled in and the codes not given are allocated.
import { alreadyExists, invalidArgument } from '@omni/platform';
import { catalog } from '@omni/proto';
import { ISRC_RULE, isValidUpc, normalizeIsrc, UPC_RULE } from '../domain/codes';
import type { FileChecker } from '../domain/file-rules';
import { DEFAULT_GENRE, emptyMetadata } from '../domain/release';
import { hasFile, MESSAGES } from '../domain/release-input';
import type { CatalogStore } from '../store/catalog-store';
import { submitRelease } from './submit-release';

export async function submitSong(store: CatalogStore, files: FileChecker, req: catalog.SubmitSongRequest) {
  const ownerId = req.ownerId;
  const title = req.title.trim().slice(0, 200);
  const artistName = req.artistName.trim().slice(0, 200);
  if (!title || !artistName) throw invalidArgument(MESSAGES.songRequired);
  if (!hasFile(req.audio)) throw invalidArgument(MESSAGES.songAudio);
  let isrc: string | undefined;
  if (req.isrc.trim()) {
    isrc = normalizeIsrc(req.isrc);
    if (!isrc) throw invalidArgument(ISRC_RULE);
    if (await store.isrcInUse(isrc)) throw alreadyExists(`ISRC ${isrc} is already used by another track.`);
  }
  let upc: string | undefined;
  if (req.upc.trim()) {
    upc = req.upc.replace(/[\s-]/g, '');
    if (!isValidUpc(upc)) throw invalidArgument(UPC_RULE);
    if (await store.upcInUse(upc)) throw alreadyExists(`UPC ${upc} is already used by another release.`);
  }
  return submitRelease(store, files, {
    ownerId,
    artistName,
    releaseTitle: title,
    trackTitle: title,
    releaseType: 'single',
    genre: DEFAULT_GENRE,
    label: '',
    releaseDate: null,
    explicit: false,
    artwork: null,
    metadata: emptyMetadata(),
    // A console submission has no cover art, which every store requires: it stays a draft and is
    // not announced to delivery until artwork is added (later work).
    stores: [],
    excludedTerritories: [],
    preOrderDate: null,
    releaseTimeZone: '',
    featuredArtists: [],
    language: '',
    source: 'song-submission',
    tracks: [
      {
        title,
        audio: { bucket: req.audio.bucket.trim(), fileKey: req.audio.fileKey.trim() },
        isrc: isrc ?? '',
        explicit: false,
        credits: catalog.Credits.fromPartial({}),
        lyrics: '',
        featuredArtists: [],
        language: '',
        discNumber: 1,
      },
    ],
    upc,
    announce: false,
  });
}
