// The API contract (@omni/proto/api) is the one source of the input rules both sides show: what the web
// app's checks refuse, the gateway refuses with the same sentence, because both parse with the same schema.
import { randomUUID } from 'node:crypto';
import {
  AUTH_MESSAGES,
  apiErrorSchema,
  createReleaseRequest,
  fieldMessages,
  RELEASE_MESSAGES,
  submitSongRequest,
} from '@omni/proto/api';
import * as z from 'zod/mini';
import { loginSchema, signupSchema } from '../../frontends/dashboard/src/lib/auth-schemas';
import { type ReleasePlatform, releaseBody, startReleasePlatform } from './releases.fixtures';

let omni: ReleasePlatform;
const alice = randomUUID();
let token: string;

beforeAll(async () => {
  omni = await startReleasePlatform();
  token = await omni.token(alice);
});
afterAll(() => omni?.close());

const refusal = async (path: string, json: unknown, auth = true) => {
  const res = await omni.api(path, { method: 'POST', json, ...(auth ? { token } : {}) });
  expect(res.status).toBe(400);
  // Every refusal is the contract's error body, with the code the web app switches on.
  const body = apiErrorSchema.parse(await res.json());
  expect(body.error.code).toBe('invalid_request');
  return body.error.message;
};
/** The first message the contract's schema gives, as the gateway shows it. */
const contractSays = (schema: z.ZodMiniType, value: unknown) =>
  z.safeParse(schema, value).error?.issues[0]?.message;

describe('release and song bodies', () => {
  const cases: [string, () => unknown, string][] = [
    ['no body', () => ({}), RELEASE_MESSAGES.required],
    ['a blank title', () => releaseBody(alice, { releaseTitle: ' ' }), RELEASE_MESSAGES.required],
    ['no artwork', () => releaseBody(alice, { artwork: undefined }), RELEASE_MESSAGES.files],
    ['a mixtape', () => releaseBody(alice, { releaseType: 'mixtape' }), RELEASE_MESSAGES.releaseType],
    [
      'a slashed date',
      () => releaseBody(alice, { releaseDate: '1/2/2026' }),
      fieldMessages.dateFormat('Release date'),
    ],
    ['a word for BPM', () => releaseBody(alice, { technical: { bpm: 'fast' } }), RELEASE_MESSAGES.bpmType],
    ['a BPM of 5000', () => releaseBody(alice, { technical: { bpm: 5000 } }), RELEASE_MESSAGES.bpmRange],
    ['explicit as text', () => releaseBody(alice, { explicit: 'yes' }), RELEASE_MESSAGES.explicit],
    [
      'a long label',
      () => releaseBody(alice, { label: 'x'.repeat(201) }),
      fieldMessages.tooLong('Label', 200),
    ],
  ];
  it.each(cases)('a release with %s: the gateway says what the contract says', async (_, body, message) => {
    const value = body();
    expect(contractSays(createReleaseRequest, value)).toBe(message);
    expect(await refusal('/api/releases', value)).toBe(message);
  });

  it('a song without its audio: the same sentence from the contract and the gateway', async () => {
    const value = { title: 'T', artistName: 'A' };
    expect(contractSays(submitSongRequest, value)).toBe(RELEASE_MESSAGES.songAudio);
    expect(await refusal('/api/songs', value)).toBe(RELEASE_MESSAGES.songAudio);
  });
});

describe('sign-in fields', () => {
  it('a bad email: the sign-up screen and the gateway refuse it with the same sentence', async () => {
    const value = { email: 'not-an-email', password: 'secret1', confirmPassword: 'secret1' };
    expect(z.safeParse(signupSchema, value).error?.issues[0]?.message).toBe(AUTH_MESSAGES.invalidEmail);
    expect(await refusal('/api/auth/signup', value, false)).toBe(AUTH_MESSAGES.invalidEmail);
  });

  it('a short password: the login screen and the gateway refuse it with the same sentence', async () => {
    const value = { email: 'a@example.com', password: '123' };
    expect(z.safeParse(loginSchema, value).error?.issues[0]?.message).toBe(AUTH_MESSAGES.passwordTooShort);
    expect(await refusal('/api/auth/login', value, false)).toBe(AUTH_MESSAGES.passwordTooShort);
  });
});
