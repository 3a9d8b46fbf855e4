// Runs libxml2 (WebAssembly) XSD validation off the caller's thread. libxml2-wasm is an ES module with
// top-level await, which CommonJS callers (our services under jest, tsx's CJS mode) cannot load directly;
// a worker is plain Node ESM, and it parses the schema once for every message it validates.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { XmlDocument, XmlParseError, XmlValidateError, XsdValidator } from 'libxml2-wasm';
import { xmlRegisterFsInputProviders } from 'libxml2-wasm/lib/nodejs.mjs';

// Lets the schema's xs:import (allowed-value-sets.xsd) resolve from the local folder: no network.
xmlRegisterFsInputProviders();
const schemaPath = workerData.schemaPath;
const schema = XmlDocument.fromBuffer(readFileSync(schemaPath), { url: schemaPath });
const validator = XsdValidator.fromDoc(schema);

// What the XSD leaves optional but every store requires: the schema lets ResourceId and ReleaseId be empty,
// yet a recording without its ISRC or a release without its UPC cannot be ingested.
const REQUIRED = [
  {
    xpath: '//SoundRecording/SoundRecordingEdition/ResourceId[not(ISRC)]',
    message:
      "Element 'ResourceId': the sound recording has no ISRC; every store identifies recordings by ISRC.",
  },
  {
    xpath: '//Release/ReleaseId[not(ICPN)]',
    message: "Element 'ReleaseId': the release has no ICPN (UPC); every store identifies releases by it.",
  },
];

const toErrors = (details) => details.map((d) => ({ line: d.line, message: d.message.trim() }));

function validate(xml) {
  let doc;
  try {
    doc = XmlDocument.fromString(xml);
  } catch (err) {
    if (err instanceof XmlParseError) return { valid: false, errors: toErrors(err.details) };
    throw err;
  }
  try {
    validator.validate(doc);
    const errors = REQUIRED.flatMap((rule) =>
      doc.find(rule.xpath).map((node) => ({ line: node.line, message: rule.message })),
    );
    return { valid: errors.length === 0, errors };
  } catch (err) {
    if (err instanceof XmlValidateError) return { valid: false, errors: toErrors(err.details) };
    throw err;
  } finally {
    doc.dispose();
  }
}

parentPort.on('message', ({ id, xml }) => {
  try {
    parentPort.postMessage({ id, result: validate(xml) });
  } catch (err) {
    parentPort.postMessage({ id, error: String(err?.message ?? err) });
  }
});
