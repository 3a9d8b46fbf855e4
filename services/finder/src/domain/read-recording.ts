// One recording read once for every rule: its ISRC checked and its credit lists parsed. Tracks of one release
// arrive together and share their credits, so the last release's parsed lists are reused when they match.
import { type Person, parsePerson } from './credits/people';
import { checkIsrc, type IdentifierCheck } from './identifiers';
import type { CatalogueRecording } from './scan-model';

export interface ReadRecording {
  recording: CatalogueRecording;
  isrc: IdentifierCheck;
  musicians: Person[];
  writers: Person[];
}

const parseList = (texts: string[]): Person[] =>
  texts
    .filter((text) => text.trim() !== '')
    .map(parsePerson)
    .filter((person) => person.name !== '');

const sameList = (a: string[], b: string[]): boolean =>
  a.length === b.length && a.every((item, i) => item === b[i]);

export function createReader(): (recording: CatalogueRecording) => ReadRecording {
  let last:
    | { musicianTexts: string[]; writerTexts: string[]; musicians: Person[]; writers: Person[] }
    | undefined;
  return (recording) => {
    const { musicians: musicianTexts, writers: writerTexts } = recording.credits;
    if (!last || !sameList(last.musicianTexts, musicianTexts) || !sameList(last.writerTexts, writerTexts))
      last = {
        musicianTexts,
        writerTexts,
        musicians: parseList(musicianTexts),
        writers: parseList(writerTexts),
      };
    return { recording, isrc: checkIsrc(recording.isrc), musicians: last.musicians, writers: last.writers };
  };
}
