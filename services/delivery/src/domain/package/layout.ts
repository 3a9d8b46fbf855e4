// Where each file of a release's batch goes (shared/design/delivery.md, "Batch delivery"): the batch
// folder `N_<batchId>/`, one folder per release named by its UPC holding `<upc>.xml` and `resources/`,
// resource files named `<ReleaseId>_<TechnicalResourceId>_<ResourceType>.<ext>`.

export const batchFolderName = (batchId: string) => `N_${batchId}`;

/** Relative to the release folder, as the message's File/URI names it. */
export const audioUri = (upc: string, isrc: string, ext: string) =>
  `resources/${upc}_${isrc}_SoundRecording.${ext}`;
export const coverUri = (upc: string, ext: string) => `resources/${upc}_${upc}_Image.${ext}`;

/** Relative to the batch folder. */
export const messagePath = (upc: string) => `${upc}/${upc}.xml`;

/** Relative to the store root: what the transport's BatchFile.path wants. */
export const inBatch = (batchId: string, relative: string) => `${batchFolderName(batchId)}/${relative}`;
