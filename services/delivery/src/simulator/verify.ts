// What a store checks when a batch is complete, per message: the message file is the one the manifest
// hashed, it is valid ERN 4.3 (the XSD), and every file it names (<File><URI>, relative to the message's
// folder) is there with the size and hash the message gives. A file missing from the batch is fine when
// the store already holds one with that hash (an update may carry only the XML): stores do the same.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AckFileStatus } from '../domain/ack/model';
import type { BatchCompleteMessage } from '../domain/ddex/batch-complete-model';
import type { ErnValidator } from '../domain/ddex/validate';
import { descendants, optionalText, readXmlDocument, type XmlNode } from '../domain/xml/read';
import { type HashAlgorithm, hashFile, inside } from './files';

export interface MessageVerdict {
  fileStatus: AckFileStatus;
  /** What was wrong, in the store's words (absent when FileOK). */
  errorText?: string;
  /** Set for an invalid message: a person must look before it is sent again. */
  manualCheckRequired: boolean;
  /** `<algorithm>:<hex>` of every file verified, so a later batch may omit them. */
  fileHashes: string[];
}

interface Problem {
  status: Exclude<AckFileStatus, 'FileOK'>;
  text: string;
}

const ALGORITHMS: Record<string, HashAlgorithm> = { MD5: 'md5', 'SHA-256': 'sha256' };
/** How many problems an acknowledgement lists (the first ones; a store does not write a novel). */
const SHOWN = 3;

export async function verifyMessage(
  batchDir: string,
  message: BatchCompleteMessage,
  validator: ErnValidator,
  knownHashes: ReadonlySet<string>,
): Promise<MessageVerdict> {
  const messageFile = inside(batchDir, message.path);
  const fail = (status: Problem['status'], text: string, manual = false): MessageVerdict => ({
    fileStatus: status,
    errorText: text,
    manualCheckRequired: manual,
    fileHashes: [],
  });
  if (!messageFile) return fail('ResourceMissing', `${message.path}: not inside the batch folder`);
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(messageFile);
  } catch {
    return fail('ResourceMissing', `${message.path}: the message file is missing`);
  }
  const digest = createHash('sha256').update(bytes).digest('hex');
  if (digest !== message.sha256) {
    return fail(
      'ResourceCorrupt',
      `${message.path}: SHA-256 ${digest} is not the manifest's ${message.sha256}`,
    );
  }
  const xml = bytes.toString('utf8');
  const validation = await validator.validate(xml);
  if (!validation.valid) {
    const errors = validation.errors.slice(0, SHOWN).map((e) => `line ${e.line}: ${e.message}`);
    return fail('SchemaValidationError', `${message.path}: ${errors.join('; ')}`, true);
  }

  const releaseDir = path.dirname(messageFile);
  const problems: Problem[] = [];
  const fileHashes: string[] = [];
  for (const file of descendants(readXmlDocument(xml, message.path), 'File')) {
    const problem = await checkFile(releaseDir, file, knownHashes, fileHashes);
    if (problem) problems.push(problem);
  }
  if (problems.length === 0) return { fileStatus: 'FileOK', manualCheckRequired: false, fileHashes };
  const [first] = problems as [Problem];
  return {
    fileStatus: first.status,
    errorText: problems
      .slice(0, SHOWN)
      .map((p) => p.text)
      .join('; '),
    manualCheckRequired: false,
    fileHashes,
  };
}

async function checkFile(
  releaseDir: string,
  file: XmlNode,
  knownHashes: ReadonlySet<string>,
  verified: string[],
): Promise<Problem | undefined> {
  const uri = optionalText(file, 'URI') ?? '';
  const hashSum = (file.HashSum ?? {}) as XmlNode;
  const algorithmName = optionalText(hashSum, 'Algorithm') ?? '';
  const expected = (optionalText(hashSum, 'HashSumValue') ?? '').toLowerCase();
  const sizeText = optionalText(file, 'FileSize');
  const algorithm = ALGORITHMS[algorithmName];
  if (!algorithm)
    return { status: 'ResourceCorrupt', text: `${uri}: hash algorithm "${algorithmName}" is not supported` };
  const key = `${algorithm}:${expected}`;
  const full = inside(releaseDir, uri);
  if (!full) return { status: 'ResourceMissing', text: `${uri}: not inside the release folder` };
  const stat = await fs.stat(full).catch(() => undefined);
  if (!stat?.isFile()) {
    if (knownHashes.has(key)) return undefined;
    return { status: 'ResourceMissing', text: `${uri}: the file is missing` };
  }
  if (sizeText !== undefined && Number(sizeText) !== stat.size) {
    return { status: 'ResourceCorrupt', text: `${uri}: ${stat.size} bytes, the message says ${sizeText}` };
  }
  const actual = await hashFile(full, algorithm);
  if (actual !== expected) {
    return {
      status: 'ResourceCorrupt',
      text: `${uri}: ${algorithmName} ${actual} is not the message's ${expected}`,
    };
  }
  verified.push(key);
  return undefined;
}
