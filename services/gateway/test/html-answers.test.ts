// The HTML fast path keeps each URL's answers; a rebuild under a running gateway must still show at once
// (after the pages' check interval), and a client varying the query must not grow what is kept.

import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { htmlPagesFastPath } from '../src/http/web/html-answers';
import { HtmlPages } from '../src/http/web/html-pages';

const shell = (script: string) =>
  `<!doctype html><html><head><title>Omni</title></head><body><div id="root"></div><script defer src="/${script}"></script></body></html>`;

let dir: string;
let clock: number;
const SCREENS: Record<string, { remote: string; exposes: string[] }> = {
  '/music': { remote: 'marketing', exposes: ['./MusicPage'] },
};

function build(file: string, content: string, mtimeSeconds: number) {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, content);
  utimesSync(file, mtimeSeconds, mtimeSeconds);
}
const request = (url: string) => ({ url, method: 'GET', headers: {} }) as IncomingMessage;
const body = (ready: ReturnType<ReturnType<typeof htmlPagesFastPath>>) => ready?.body?.toString('utf8') ?? '';

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'omni-html-answers-'));
  clock = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function fastPath() {
  const pages = new HtmlPages(
    dir,
    ['marketing'],
    (path) => SCREENS[path],
    undefined,
    () => clock,
  );
  return htmlPagesFastPath({
    pages,
    isScreen: (path) => path in SCREENS,
    shellDist: join(dir, 'shell', 'dist'),
    policy: undefined,
  });
}

it('answers the new build once it lands, not the answer it kept for the URL', () => {
  const indexFile = join(dir, 'shell', 'dist', 'index.html');
  build(indexFile, shell('main.1.js'), 1000);
  const answer = fastPath();
  expect(body(answer(request('/music')))).toContain('main.1.js');
  expect(body(answer(request('/music')))).toContain('main.1.js');

  build(indexFile, shell('main.2.js'), 2000);
  clock += 1000;
  const after = body(answer(request('/music')));
  expect(after).toContain('main.2.js');
  expect(after).not.toContain('main.1.js');
});

it('answers every variation of a query the same as the first, however many a client sends', () => {
  build(join(dir, 'shell', 'dist', 'index.html'), shell('main.1.js'), 1000);
  const answer = fastPath();
  const first = answer(request('/music'));
  for (let i = 0; i < 1000; i++) expect(answer(request(`/music?n=${i}`))?.body).toEqual(first?.body);
  // Paths that are no screen, and API paths, are left to Express.
  expect(answer(request('/nowhere'))).toBeUndefined();
  expect(answer(request('/api/pages'))).toBeUndefined();
});
