// The ℗ line. The artist form labels legal.copyrightLine 'Copyright (P Line)' and publishingLine
// 'Publishing (C Line)', so the ℗ (sound recording) line is copyrightLine. Accepted: '℗ 2024 Owner',
// '(P) 2024 Owner', 'P 2024 Owner', '2024 Owner'.

export interface PLine {
  year?: number;
  owner: string;
}

export function parsePLine(text: string): PLine | undefined {
  const line = text.trim();
  if (line === '') return undefined;
  // A © or (C) typed into the ℗ field still names the owner and year; the prefix carries no more.
  const rest = line.replace(/^(℗|\(p\)|©|\(c\)|p(?=\s))\s*/i, '');
  const year = /^(\d{4})\b\s*,?\s*/.exec(rest);
  if (!year) return { owner: rest.trim() };
  return { year: Number(year[1]), owner: rest.slice(year[0].length).trim() };
}
