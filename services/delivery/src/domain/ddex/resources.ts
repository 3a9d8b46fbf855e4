// ResourceList: the sound recordings (ISRC, ℗, technical details with the file's hash) and the front cover.
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { addDisplayArtists, addFile, addLine, addTitles, parentalWarning } from './elements';
import { isoDuration } from './format';
import type { ErnCoverImage, ErnSoundRecording } from './model';
import type { ErnReferences } from './references';

function addSoundRecording(list: XMLBuilder, rec: ErnSoundRecording, index: number, refs: ErnReferences) {
  const node = list.ele('SoundRecording');
  node.ele('ResourceReference').txt(refs.recording(index));
  node.ele('Type').txt('MusicalWorkSoundRecording');

  const edition = node.ele('SoundRecordingEdition');
  edition.ele('ResourceId').ele('ISRC').txt(rec.isrc);
  addLine(edition, 'PLine', rec.pLine);
  const details = edition.ele('TechnicalDetails');
  details.ele('TechnicalResourceDetailsReference').txt(refs.recordingDetails(index));
  const file = details.ele('DeliveryFile');
  file.ele('Type').txt('AudioFile');
  const audio = rec.audio;
  file.ele('AudioCodecType').txt(audio.codec);
  if (audio.bitRateKbps !== undefined)
    file.ele('BitRate', { UnitOfMeasure: 'kbps' }).txt(String(audio.bitRateKbps));
  if (audio.channels !== undefined) file.ele('NumberOfChannels').txt(String(audio.channels));
  if (audio.sampleRateHz !== undefined)
    file.ele('SamplingRate', { UnitOfMeasure: 'Hz' }).txt(String(audio.sampleRateHz));
  if (audio.bitsPerSample !== undefined) file.ele('BitsPerSample').txt(String(audio.bitsPerSample));
  addFile(file, audio.file);

  addTitles(node, rec.title);
  addDisplayArtists(node, rec.artists, refs);
  rec.contributors.forEach((c, i) => {
    const el = node.ele('Contributor', { SequenceNumber: String(i + 1) });
    el.ele('ContributorPartyReference').txt(refs.party(c.name));
    for (const role of c.roles) el.ele('Role').txt(role);
  });
  node.ele('Duration').txt(isoDuration(rec.durationSeconds));
  node.ele('ParentalWarningType').txt(parentalWarning(rec.explicit));
  if (rec.language) node.ele('LanguageOfPerformance').txt(rec.language);
}

function addCover(list: XMLBuilder, cover: ErnCoverImage, namespace: string, refs: ErnReferences) {
  const node = list.ele('Image');
  node.ele('ResourceReference').txt(refs.cover);
  node.ele('Type').txt('FrontCoverImage');
  node.ele('ResourceId').ele('ProprietaryId', { Namespace: namespace }).txt(cover.proprietaryId);
  const details = node.ele('TechnicalDetails');
  details.ele('TechnicalResourceDetailsReference').txt(refs.coverDetails);
  details.ele('ImageCodecType').txt(cover.codec);
  details.ele('ImageHeight', { UnitOfMeasure: 'Pixel' }).txt(String(cover.heightPx));
  details.ele('ImageWidth', { UnitOfMeasure: 'Pixel' }).txt(String(cover.widthPx));
  addFile(details, cover.file);
}

export function addResourceList(
  root: XMLBuilder,
  recordings: readonly ErnSoundRecording[],
  cover: ErnCoverImage,
  namespace: string,
  refs: ErnReferences,
): void {
  const list = root.ele('ResourceList');
  for (const [i, rec] of recordings.entries()) addSoundRecording(list, rec, i, refs);
  addCover(list, cover, namespace, refs);
}
