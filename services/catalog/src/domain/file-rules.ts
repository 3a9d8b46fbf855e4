// The rules a release's files must pass, applied to storage's inspection of the bytes. Storage applies
// them too when an upload is completed with a role; catalog checks again because a file may have been
// completed without one, and the release is what the stores will receive.
import type { FileInfo } from '../files/file-checker';

export type FileRole = 'audio' | 'artwork';

const MIN_ARTWORK_SIDE = 3000;
const ARTWORK_FORMATS = new Set(['jpeg', 'jpg', 'png']);

/** The first thing wrong with the file for its role, as a message a person can act on; undefined if fine. */
export function fileProblem(role: FileRole, info: FileInfo, callerId: string): string | undefined {
  // A file of someone else is reported exactly like a missing one: it does not reveal that it exists.
  if (!info.exists || info.ownerId !== callerId) {
    return role === 'audio'
      ? 'We could not find the uploaded audio file. Please upload it again.'
      : 'We could not find the uploaded artwork. Please upload it again.';
  }
  const inspection = info.inspection;
  if (!inspection) return `The ${role} file has not been inspected yet. Please upload it again.`;
  if (inspection.problems.length > 0) return inspection.problems[0];
  if (role === 'audio') {
    if (inspection.kind !== 'audio')
      return `This file is not audio (it looks like ${describeKind(inspection.kind)}). Please choose a WAV, FLAC or MP3 file.`;
    if (!(inspection.durationSeconds > 0))
      return 'We could not read the length of this audio file. Please export it again as WAV, FLAC or MP3.';
    return undefined;
  }
  if (inspection.kind !== 'image' || !ARTWORK_FORMATS.has(inspection.format.toLowerCase()))
    return 'Cover art must be a JPG or PNG image.';
  const { width, height } = inspection;
  if (width !== height || width < MIN_ARTWORK_SIDE)
    return width !== height
      ? `Cover art must be square (at least 3000x3000 pixels); this image is ${width}x${height}.`
      : `Cover art must be at least 3000x3000 pixels; this image is ${width}x${height}.`;
  if (inspection.colorMode && inspection.colorMode.toLowerCase() !== 'rgb')
    return `Cover art must be RGB; this image is ${inspection.colorMode.toUpperCase()}.`;
  return undefined;
}

function describeKind(kind: string): string {
  if (kind === 'image') return 'an image';
  if (kind === 'video') return 'a video';
  if (kind === 'pdf') return 'a PDF document';
  if (kind === 'document') return 'a document';
  return 'something else';
}
