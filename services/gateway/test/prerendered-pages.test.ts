import { composePrerendered, findPrerendered, type PrerenderedPage } from '../src/http/web/prerendered-pages';

const SHELL =
  '<!doctype html><html><head><title>Omni</title><meta name="description" content="shell">' +
  '<link href="/main.css" rel="stylesheet"></head><body><a href="#main">Skip</a><div id="root"></div>' +
  '<noscript><p class="x">\n Omni needs JavaScript to run.\n</p></noscript>' +
  '<script defer src="/main.js"></script></body></html>';

const page = (over: Partial<PrerenderedPage>): PrerenderedPage => ({
  path: '/',
  query: {},
  title: 'Omni',
  description: 'd',
  html: '<main id="main"><h1>Hi</h1></main>',
  styles: ['/remotes/marketing/styles.1.css'],
  scripts: ['/remotes/marketing/1.js'],
  ...over,
});

describe('findPrerendered', () => {
  const sales = page({ path: '/contact-sales', query: { type: '' }, title: 'Sales' });
  const dpa = page({ path: '/contact-sales', query: { type: 'dpa' }, title: 'DPA' });
  const pages = [page({}), sales, dpa];

  it('picks the rendering for the parameters the page names and ignores the others', () => {
    expect(findPrerendered(pages, '/contact-sales', new URLSearchParams(''))).toBe(sales);
    expect(findPrerendered(pages, '/contact-sales', new URLSearchParams('type=dpa'))).toBe(dpa);
    expect(findPrerendered(pages, '/contact-sales', new URLSearchParams('type=dpa&utm_source=x'))).toBe(dpa);
    expect(findPrerendered(pages, '/', new URLSearchParams('utm_source=newsletter'))).toBe(pages[0]);
  });

  it('treats a trailing slash as the same page and knows no other', () => {
    expect(findPrerendered(pages, '/contact-sales/', new URLSearchParams())).toBe(sales);
    // A value it was not rendered for is left to the browser rather than shown wrong.
    expect(findPrerendered(pages, '/contact-sales', new URLSearchParams('type=other'))).toBeUndefined();
    expect(findPrerendered(pages, '/music', new URLSearchParams())).toBeUndefined();
  });
});

describe('composePrerendered', () => {
  it('puts the markup before #root and the title, description, styles and code hints in the head', () => {
    const html = composePrerendered(SHELL, page({ title: 'Pricing · Omni', description: 'Plans' }), 2026);
    expect(html).toContain('<title>Pricing · Omni</title>');
    expect(html).toContain('<meta name="description" content="Plans">');
    expect(html).not.toContain('content="shell"');
    expect(html).toContain(
      '<link rel="stylesheet" href="/remotes/marketing/styles.1.css"><link rel="preload" href="/remotes/marketing/1.js" as="script"></head>',
    );
    expect(html).toContain(
      '<div id="omni-prerender"><main id="main"><h1>Hi</h1></main></div><div id="root"></div>',
    );
    // The page reads without JavaScript, so the notice says what does need it.
    expect(html).toMatch(/<noscript><p class="x">You can read this page without JavaScript\. Signing in/);
  });

  it('escapes the title and description, and keeps `$` in the text as it is', () => {
    const html = composePrerendered(
      SHELL,
      page({ title: 'Pro $12.99 <b>', description: 'Say "hi" & $& save $56', html: '<p>$99 $1</p>' }),
      2026,
    );
    expect(html).toContain('<title>Pro $12.99 &lt;b&gt;</title>');
    expect(html).toContain('content="Say &quot;hi&quot; &amp; $&amp; save $56"');
    expect(html).toContain('<div id="omni-prerender"><p>$99 $1</p></div>');
  });

  it('writes the current year where the build marked it, and only there', () => {
    const html = composePrerendered(
      SHELL,
      page({ html: '<p>Since 2019</p><p>© <span data-current-year="">2026</span> Omni.</p>' }),
      2027,
    );
    expect(html).toContain('<p>Since 2019</p><p>© <span data-current-year="">2027</span> Omni.</p>');
  });
});
