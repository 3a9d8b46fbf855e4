// Split invitation mails (royalties' `split.invitation`, issue 26): who each goes to, what it says, and
// that the link's secret is not kept once the mail went. The event's schema is the one contract.
import { events } from '@omni/proto';
import { settledNotice, splitNotice, topicOf } from '../src/domain/notifications';
import { shareWords, splitInvitationMail, splitLapsedMail } from '../src/domain/split-mails';

const LINK = 'https://omni.example/splits/invitation?token=s3cr3t-token-value';
const event = (over: Partial<events.EventInput<'split.invitation'>> = {}) =>
  events.catalogue['split.invitation'].schema.parse({
    kind: 'invited',
    invitationId: 'inv-1',
    releaseId: 'rel-1',
    releaseTitle: 'Split Road',
    ownerId: 'u-owner',
    ownerEmail: 'owner@example.test',
    email: 'ana@example.test',
    shares: [
      { target: null, title: 'Split Road (release default)', percent: '40' },
      { target: 'trk-1', title: 'One', percent: '40' },
    ],
    held: '0',
    expiresAt: '2026-08-09T12:00:00.000Z',
    link: LINK,
    at: '2026-07-10T12:00:00.000Z',
    ...over,
  });

describe('split.invitation contract', () => {
  const schema = events.catalogue['split.invitation'].schema;
  it('takes what royalties writes and refuses a bad address, percent or amount', () => {
    expect(event().kind).toBe('invited');
    expect(schema.safeParse({ ...event(), email: 'not-an-address' }).success).toBe(false);
    expect(
      schema.safeParse({ ...event(), shares: [{ target: null, title: 'x', percent: '40.12345' }] }).success,
    ).toBe(false);
    expect(schema.safeParse({ ...event(), held: '1.5e3' }).success).toBe(false);
    expect(schema.safeParse({ ...event(), kind: 'reverted' }).success).toBe(false);
    expect(schema.safeParse({ ...event(), link: undefined }).success).toBe(true);
  });
});

describe('split invitation mails', () => {
  it('an invitation goes to the invitee address (no account needed) with the link, and is no setting', () => {
    const { to, userId, notice } = splitNotice(event());
    expect([to, userId, notice.kind, topicOf(notice)]).toEqual([
      'ana@example.test',
      '',
      'split_invited',
      'splits',
    ]);
    if (notice.kind === 'split_lapsed') throw new Error('unexpected');
    const m = splitInvitationMail(to!, notice, 'Mara Owner');
    expect(m.to).toBe('ana@example.test');
    expect(m.subject).toBe('Mara Owner invites you to a share of "Split Road"');
    expect(m.text).toContain('40% of "Split Road"');
    expect(m.text).toContain(LINK);
    expect(m.text).toContain('9 August 2026');
    expect(m.text).toContain('even one with another email address');
  });

  it('a resent link says the old one is dead and what is held', () => {
    const { notice } = splitNotice(event({ kind: 'resent', held: '0.400000001' }));
    if (notice.kind === 'split_lapsed') throw new Error('unexpected');
    const m = splitInvitationMail('ana@example.test', notice, 'Mara');
    expect(m.text).toContain('the one sent before no longer works');
    expect(m.text).toContain('$0.40 has come in for it so far and is held for you');
  });

  it('a lapse goes to the owner account, carries no link, says nothing moved and the three choices', () => {
    const { to, userId, notice } = splitNotice(event({ kind: 'lapsed', link: LINK, held: '12.5' }));
    expect([to, userId, notice.kind]).toEqual([null, 'u-owner', 'split_lapsed']);
    expect(JSON.stringify(notice)).not.toContain('s3cr3t');
    if (notice.kind !== 'split_lapsed') throw new Error('unexpected');
    const m = splitLapsedMail('owner@example.test', notice, 'https://omni.example');
    expect(m.subject).toBe('Your invitation to ana@example.test lapsed');
    expect(m.text).toContain('Nothing has moved');
    expect(m.text).toContain('$12.50 so far');
    expect(m.text).toContain('send the invitation again');
    expect(m.text).toContain('give the share to someone else');
    expect(m.text).toContain('take it back yourself');
    expect(m.text).toContain('https://omni.example/release/rel-1?tab=splits');
  });

  it('keeps no link once settled', () => {
    const { notice } = splitNotice(event());
    expect(JSON.stringify(settledNotice(notice))).not.toContain('s3cr3t');
  });

  it('names each track when the shares differ', () => {
    expect(
      shareWords({
        releaseTitle: 'R',
        shares: [
          { target: 't1', title: 'One', percent: '40' },
          { target: 't2', title: 'Two', percent: '12.5' },
        ],
      }),
    ).toBe('40% of "One", 12.5% of "Two" on "R"');
    expect(shareWords({ releaseTitle: 'R', shares: [{ target: 't1', title: 'One', percent: '60' }] })).toBe(
      '60% of "One" on "R"',
    );
  });
});
