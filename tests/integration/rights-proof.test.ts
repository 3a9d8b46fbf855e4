// Proof of rights through the HTTP surface (issue 27): B's upload of A's song is held by the rights check;
// B answers with a note and a PDF (POST /api/releases/:id/rights-proof), and
// the admin sees the answers (newest first) and downloads the file. Refused: someone else (404), no session
// (401), an empty note, a file that is not a PDF/PNG/JPEG/text or is over 10 MB (400), a release the rights
// check does not hold (409).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FpcalcFingerprinter } from '../../services/delivery/src/providers/fingerprinter/fpcalc';
import { artistReviewOf, releaseSong, songMaster } from '../support/rights-hold';
import { uploadFile } from '../support/uploads';
import { startDeliveryPlatform } from './delivery.fixtures';
import { type ReleasePlatform, releaseBody, waitUntil } from './releases.fixtures';

const missing = new FpcalcFingerprinter().missing();
const describeIfFpcalc = missing ? describe.skip : describe;
if (missing) console.log(`SKIPPED rights proof suite: ${missing}`);

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
// A zip archive: storage keeps it in documents, but a proof must be a PDF, PNG, JPEG or text.
const ZIP = Buffer.concat([Buffer.from([0x50, 0x4b, 0x05, 0x06]), Buffer.alloc(18)]);

let omni: ReleasePlatform;
let dir: string;
const A = randomUUID();
const B = randomUUID();
const C = randomUUID();
const tokens: Record<string, string> = {};
let adminToken: string;
let heldId: string;
let originalId: string;

const song = (owner: string, title: string) =>
  releaseSong(
    omni,
    tokens[owner] ?? '',
    releaseBody(owner, { releaseTitle: title, trackTitle: title }),
    songMaster(dir, `${owner}-${title}`, { seed: 1, seconds: 60 }),
  );

/** The stored file as the proof names it. */
const upload = async (owner: string, fileName: string, contentType: string, bytes: Buffer) => {
  const { bucket, fileKey } = await uploadOne(owner, fileName, contentType, bytes);
  return { bucket, fileKey };
};
const uploadOne = (owner: string, fileName: string, contentType: string, bytes: Buffer) =>
  uploadFile(omni.url, tokens[owner] ?? '', {
    bucket: 'documents',
    fileName,
    contentType,
    bytes,
    purpose: 'console',
  });

async function sendProof(
  owner: string | null,
  releaseId: string,
  note: string,
  file: { bucket: string; fileKey: string; fileName: string },
) {
  return omni.api(`/api/releases/${releaseId}/rights-proof`, {
    method: 'POST',
    ...(owner ? { token: tokens[owner] ?? '' } : {}),
    json: { note, file },
  });
}

const messageOf = async (res: Response) =>
  ((await res.json()) as { error: { message: string } }).error.message;

describeIfFpcalc('proof of rights for a held release, through the API', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'omni-rights-proof-'));
    omni = await startDeliveryPlatform();
    for (const who of [A, B, C]) tokens[who] = await omni.token(who);
    adminToken = await omni.token(randomUUID(), ['artist', 'admin']);
    originalId = await song(A, 'Original');
    await artistReviewOf(omni, tokens[A] ?? '', originalId, waitUntil);
    heldId = await song(B, 'Copy');
  }, 300_000);
  afterAll(async () => {
    await omni?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('holds B’s copy and tells B why without A’s release, with no answer yet', async () => {
    const review = await artistReviewOf(omni, tokens[B] ?? '', heldId, waitUntil);
    expect(review.status).toBe('in_review');
    expect(review.findings.some((f) => f.match?.decision === 'hold')).toBe(true);
    expect(review.proofs).toEqual([]);
    // Why, in words, without A's release (the admin's review names it).
    expect(review.findings.find((f) => f.match?.decision === 'hold')?.message).toContain('send your proof');
    expect(JSON.stringify(review)).not.toContain(originalId);
  }, 180_000);

  it('keeps each answer, newest first, for the admin, who downloads the file', async () => {
    const pdf = await upload(B, 'licence.pdf', 'application/pdf', PDF);
    const first = await sendProof(B, heldId, '  I licensed this master from its owner.  ', {
      ...pdf,
      fileName: 'licence.pdf',
    });
    expect([first.status, await first.clone().text()]).toEqual([201, expect.stringContaining('sent')]);
    const txt = await upload(
      B,
      'invoice.txt',
      'text/plain',
      Buffer.from('Invoice 42: master licence, paid.\n'),
    );
    const second = await sendProof(B, heldId, 'And the invoice.', { ...txt, fileName: 'invoice.txt' });
    expect(second.status).toBe(201);

    const admin = await omni.api(`/api/admin/releases/${heldId}`, { token: adminToken });
    const { review } = (await admin.json()) as {
      review: {
        proofs: Array<{
          id: string;
          note: string;
          fileName: string;
          contentType: string;
          downloadUrl: string;
        }>;
      };
    };
    expect(review.proofs.map((p) => [p.note, p.fileName, p.contentType])).toEqual([
      ['And the invoice.', 'invoice.txt', 'text/plain'],
      ['I licensed this master from its owner.', 'licence.pdf', 'application/pdf'],
    ]);
    const pdfProof = review.proofs[1]!;
    expect(pdfProof.downloadUrl).toBe(`/api/admin/releases/${heldId}/rights-proofs/${pdfProof.id}/file`);
    const file = await omni.api(pdfProof.downloadUrl, { token: adminToken });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toContain('attachment; filename="licence.pdf"');
    expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);

    // The owner downloads their own file; the admin route is not theirs, and no one else gets it.
    const own = await omni.api(`/api/releases/${heldId}/rights-proofs/${pdfProof.id}/file`, {
      token: tokens[B] ?? '',
    });
    expect(own.status).toBe(200);
    expect((await omni.api(pdfProof.downloadUrl, { token: tokens[B] ?? '' })).status).toBe(403);
    const other = await omni.api(`/api/releases/${heldId}/rights-proofs/${pdfProof.id}/file`, {
      token: tokens[C] ?? '',
    });
    expect(other.status).toBe(404);
  }, 120_000);

  it('refuses someone else (404), no session (401), an empty note, a wrong type and a large file', async () => {
    const pdf = await upload(C, 'licence.pdf', 'application/pdf', PDF);
    expect((await sendProof(C, heldId, 'Mine.', { ...pdf, fileName: 'licence.pdf' })).status).toBe(404);
    expect((await sendProof(null, heldId, 'Mine.', { ...pdf, fileName: 'licence.pdf' })).status).toBe(401);

    const ok = await upload(B, 'licence.pdf', 'application/pdf', PDF);
    const empty = await sendProof(B, heldId, '   ', { ...ok, fileName: 'licence.pdf' });
    expect(empty.status).toBe(400);
    expect(await messageOf(empty)).toContain('Write a note');
    const long = await sendProof(B, heldId, 'x'.repeat(2001), { ...ok, fileName: 'licence.pdf' });
    expect(long.status).toBe(400);
    expect(await messageOf(long)).toBe('The note can be at most 2000 characters.');

    // The name says PDF; the bytes say zip.
    const zip = await upload(B, 'contract.pdf', 'application/pdf', ZIP);
    const wrong = await sendProof(B, heldId, 'Contract attached.', { ...zip, fileName: 'contract.pdf' });
    expect(wrong.status).toBe(400);
    expect(await messageOf(wrong)).toBe('The file must be a PDF, PNG, JPEG or text file.');

    const big = await upload(
      B,
      'scan.pdf',
      'application/pdf',
      Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024)]),
    );
    const large = await sendProof(B, heldId, 'A big scan.', { ...big, fileName: 'scan.pdf' });
    expect(large.status).toBe(400);
    expect(await messageOf(large)).toBe('The file is larger than 10 MB.');
  }, 120_000);

  it('answers 409 for a release the rights check does not hold', async () => {
    const pdf = await upload(A, 'licence.pdf', 'application/pdf', PDF);
    const res = await sendProof(A, originalId, 'Mine.', { ...pdf, fileName: 'licence.pdf' });
    expect(res.status).toBe(409);
    expect(await messageOf(res)).toContain('not held by the rights check');
  }, 60_000);
});
