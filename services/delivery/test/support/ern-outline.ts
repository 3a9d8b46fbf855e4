// A normalised outline of an XML message for golden tests: one line per element (indent, name, sorted
// attributes, trimmed text), so a diff shows structure and values, not whitespace or attribute order.
import { create } from 'xmlbuilder2';

interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  attributes?: ArrayLike<{ name: string; value: string }>;
}

export function ernOutline(xml: string): string {
  const lines: string[] = [];
  const walk = (node: DomNode, depth: number) => {
    const children = Array.from(node.childNodes).filter((c) => c.nodeType === 1);
    const attrs = Array.from(node.attributes ?? [])
      .map((a) => `${a.name}=${a.value}`)
      .sort();
    const text = children.length === 0 ? (node.textContent ?? '').trim() : '';
    lines.push(
      `${'  '.repeat(depth)}${node.nodeName}${attrs.length ? ` [${attrs.join(' ')}]` : ''}${text ? ` = ${text}` : ''}`,
    );
    for (const child of children) walk(child, depth + 1);
  };
  walk(create(xml).root().node as unknown as DomNode, 0);
  return `${lines.join('\n')}\n`;
}
