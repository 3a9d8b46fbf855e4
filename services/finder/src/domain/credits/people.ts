// How the free-text credit lists are read. Conventions (documented in ../gaps/RULES.md):
// - a musician's role follows the name in brackets or after a dash: 'Ana Diaz (guitar)', 'Ana Diaz — vocals';
// - a featured performer starts with 'feat.' / 'ft.' / 'featuring': 'feat. Bo Lee (vocals)';
// - a writer's share follows the name in brackets as a percentage: 'Ana Diaz (50%)'.

export interface Person {
  name: string;
  /** The role, for musicians ('' when none is written). */
  role: string;
  featured: boolean;
  /** The writer's share in percent, when written. */
  share?: number;
}

const FEATURED = /^(feat\.?|ft\.?|featuring)\s+/i;

export function parsePerson(text: string): Person {
  let rest = text.trim();
  const featured = FEATURED.test(rest);
  rest = rest.replace(FEATURED, '');
  let role = '';
  let share: number | undefined;
  const bracket = /^(.*?)\s*\(([^)]*)\)\s*$/.exec(rest);
  const dash = /^(.*?)\s+[—–-]\s+(.+)$/.exec(rest);
  if (bracket) {
    rest = bracket[1] ?? '';
    const inside = (bracket[2] ?? '').trim();
    const percent = /^(\d+(?:\.\d+)?)\s*%$/.exec(inside);
    if (percent) share = Number(percent[1]);
    else role = inside;
  } else if (dash) {
    rest = dash[1] ?? '';
    role = (dash[2] ?? '').trim();
  }
  return { name: rest.trim(), role, featured, share };
}

/** The key two spellings of one name share: case, accents, punctuation and spacing do not count. */
export function nameKey(name: string): string {
  // Most names are plain ASCII: skip the (costly) Unicode decomposition for them.
  const folded = /^[\x20-\x7e]*$/.test(name)
    ? name.toLowerCase()
    : name
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase();
  return folded.replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** Featured artists named in a title: 'Song (feat. Bo Lee & Cy)' → ['Bo Lee', 'Cy']. */
export function featuredInTitle(title: string): string[] {
  const match = /[([]?\b(?:feat\.?|ft\.?|featuring)\s+([^)\]]+)[)\]]?/i.exec(title);
  if (!match) return [];
  return (match[1] ?? '')
    .split(/\s*(?:,|&|\band\b)\s*/i)
    .map((name) => name.trim())
    .filter((name) => name !== '');
}
