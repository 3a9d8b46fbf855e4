// Strict reading of the small XML documents stores and we exchange (BatchComplete manifests, store
// acknowledgements, the File list of an ERN message). fast-xml-parser checks well-formedness first
// (xmlbuilder2's parser accepts unclosed or mismatched tags), and every value stays a string: a UPC or a
// batch id must keep its leading zeros.
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export type XmlNode = { [name: string]: XmlValue };
export type XmlValue = string | XmlNode | XmlValue[];

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // `ern:NewReleaseMessage` and `NewReleaseMessage` are read alike.
  removeNSPrefix: true,
});

/** The whole document (its root element is its one key besides `?xml`); throws when not well-formed. */
export function readXmlDocument(xml: string, what: string): XmlNode {
  const check = XMLValidator.validate(xml);
  if (check !== true) {
    throw new Error(`${what} is not well-formed XML (line ${check.err.line}): ${check.err.msg}`);
  }
  return parser.parse(xml) as XmlNode;
}

/** The document's root element, named `rootName`; throws `<what>: …` naming what is wrong. */
export function readXmlRoot(xml: string, rootName: string, what: string): XmlNode {
  const doc = readXmlDocument(xml, what);
  const root = doc[rootName];
  if (root === undefined || Array.isArray(root)) {
    const found = Object.keys(doc).filter((k) => !k.startsWith('?'));
    throw new Error(`${what} must have the root element ${rootName}, found ${found.join(', ') || 'none'}`);
  }
  return typeof root === 'string' ? {} : root;
}

/** Every child element named `name` (an absent one gives none). */
export function children(node: XmlNode, name: string): XmlValue[] {
  const value = node[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The one child element `name`, as an element; throws naming its path when absent. */
export function element(node: XmlNode, name: string, where: string): XmlNode {
  const [value] = children(node, name);
  if (value === undefined || Array.isArray(value)) throw new Error(`${where}: ${name} is missing`);
  return typeof value === 'string' ? { '#text': value } : value;
}

/** The text of the child element `name`; throws naming its path when absent or empty. */
export function text(node: XmlNode, name: string, where: string): string {
  const value = optionalText(node, name);
  if (!value) throw new Error(`${where}: ${name} is missing or empty`);
  return value;
}

export function optionalText(node: XmlNode, name: string): string | undefined {
  const [value] = children(node, name);
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return undefined;
  const inner = value['#text'];
  return typeof inner === 'string' ? inner : undefined;
}

/** Every element named `name` anywhere below `node`, in document order. */
export function descendants(node: XmlValue, name: string, out: XmlNode[] = []): XmlNode[] {
  if (Array.isArray(node)) {
    for (const item of node) descendants(item, name, out);
  } else if (typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('@') || key === '#text') continue;
      if (key === name) {
        for (const item of Array.isArray(value) ? value : [value]) {
          if (typeof item === 'object' && !Array.isArray(item)) out.push(item);
        }
      }
      descendants(value, name, out);
    }
  }
  return out;
}
