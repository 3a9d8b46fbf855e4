// A store as delivery knows it: one entry of the store registry (configuration, not code), for each of the
// 142 platform keys. It says where batches go (protocol and endpoint), who the store is in DDEX (party
// id), how it wants its batches and files, and which deals it takes. Credentials are never in the
// registry: it names the environment variable or file that holds them. The port's own types, so the
// registry adapters import nothing of the service (domain/stores/profile.ts re-exports them).

/** DDEX CommercialModelType / UseType values a deal may name (AVS); the ERN builders use the same words. */
export type ErnCommercialModel = 'SubscriptionModel' | 'AdvertisementSupportedModel' | 'PayAsYouGoModel';
export type ErnUseType =
  | 'OnDemandStream'
  | 'NonInteractiveStream'
  | 'PermanentDownload'
  | 'Stream'
  | 'Download';

export interface LocalEndpoint {
  protocol: 'local';
  /** The store's root folder (the simulator's inbox for that store in embedded mode). */
  root: string;
}

export interface SftpEndpoint {
  protocol: 'sftp';
  host: string;
  port: number;
  username: string;
  /** Folder on the server batches are written under. */
  root: string;
  /** Path of the private key file (owner-only), or the env variable holding a password. */
  privateKeyFile?: string;
  passwordEnv?: string;
  /** SHA-256 of the server's host key (base64, as `ssh-keygen -l` prints it without the prefix). */
  hostKeySha256?: string;
}

export interface S3Endpoint {
  protocol: 's3';
  endPoint: string;
  port?: number;
  useSSL: boolean;
  region: string;
  bucket: string;
  /** Key prefix batches are written under ('' = the bucket's root). */
  prefix: string;
  accessKeyEnv: string;
  secretKeyEnv: string;
}

export type StoreEndpoint = LocalEndpoint | SftpEndpoint | S3Endpoint;

/** One deal template; the dates are the release's (start) and a takedown's (none: no deals at all). */
export interface StoreDealTemplate {
  territories: string[];
  commercialModels: ErnCommercialModel[];
  useTypes: ErnUseType[];
}

export interface StoreProfile {
  key: string;
  /** Display name (the platform list's). */
  name: string;
  /** The store's DDEX party id (DPID, `PADPIDA…`) and name: the message's recipient. */
  partyId: string;
  partyName: string;
  endpoint: StoreEndpoint;
  /** Where the store writes acknowledgements, relative to the endpoint root. */
  ackFolder: string;
  /** LiveMessage, or TestMessage while a store connection is being certified. */
  messageControl: 'LiveMessage' | 'TestMessage';
  /** Releases per batch; 1 = a batch per release (what most stores ask of a small distributor). */
  releasesPerBatch: number;
  audio: {
    /** Master formats the store takes as they are. */
    accepts: Array<'wav' | 'flac'>;
    /** What to send when the master's format is not accepted. */
    transcodeTo: 'flac' | 'wav';
  };
  deals: StoreDealTemplate[];
}
