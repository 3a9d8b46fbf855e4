// The release and song bodies are parsed with the API contract (@omni/proto/api): shape and size only, in the
// artist form's order (spec §5). Each failure answers 400 with the contract's message, which a toast shows as
// is. The rules that need the catalog (a real date, known stores, the files' verdicts) are catalog's.
import { parseWith } from '@omni/platform';
import {
  type CreateReleaseBody,
  createReleaseRequest,
  type EditReleaseBody,
  editReleaseRequest,
  type ResubmitReleaseBody,
  resubmitReleaseRequest,
  type SubmitSongBody,
  submitSongRequest,
} from '@omni/proto/api';

export type ReleaseBody = CreateReleaseBody;
export type SongBody = SubmitSongBody;
export type ResubmitBody = ResubmitReleaseBody;

export const parseReleaseBody = (body: unknown): ReleaseBody =>
  parseWith(createReleaseRequest, body, { first: true });

export const parseSongBody = (body: unknown): SongBody => parseWith(submitSongRequest, body, { first: true });

export const parseResubmitBody = (body: unknown): ResubmitBody =>
  parseWith(resubmitReleaseRequest, body, { first: true });

export const parseEditBody = (body: unknown): EditReleaseBody =>
  parseWith(editReleaseRequest, body, { first: true });
