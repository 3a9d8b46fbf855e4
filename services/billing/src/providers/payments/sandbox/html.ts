// The frame of every sandbox page: escaped text, a banner saying this is a test environment, and the
// stylesheet served from its own route (billing's HTTP sends helmet's Content-Security-Policy; a
// stylesheet of our own origin needs no nonce).

export const esc = (s: string | number) =>
  String(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** A raw HTML fragment, already escaped. */
export interface Html {
  html: string;
}
export const raw = (html: string): Html => ({ html });

/** Tagged template that escapes every value unless it is already Html (or an array of Html). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return raw(out);
}

function render(v: unknown): string {
  if (v === undefined || v === null || v === false) return '';
  if (Array.isArray(v)) return v.map(render).join('');
  if (typeof v === 'object' && 'html' in (v as Html)) return (v as Html).html;
  return esc(String(v));
}

export function page(title: string, body: Html): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${esc(title)} · Omni checkout sandbox</title>
<link rel="stylesheet" href="/billing-sandbox/sandbox.css"></head>
<body><p class="banner" role="note"><strong>Omni checkout sandbox</strong> — a test environment. No real card is charged and no money moves.</p>
<main>${body.html}</main></body></html>`;
}

export const STYLES = `body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#111;background:#f6f6f8}
main{max-width:640px;margin:2rem auto;padding:0 1rem}
.banner{margin:0;padding:.6rem 1rem;background:#fef3c7;color:#78350f;text-align:center;border-bottom:1px solid #f59e0b}
section,form.card{background:#fff;border:1px solid #ddd;border-radius:8px;padding:1rem 1.25rem;margin:1rem 0}
label{display:block;margin:.5rem 0 .2rem;font-weight:600}
input{font:inherit;padding:.45rem .6rem;border:1px solid #bbb;border-radius:6px;width:100%;box-sizing:border-box}
.row{display:flex;gap:.75rem}.row>div{flex:1}
button{font:inherit;padding:.55rem 1rem;border-radius:6px;border:1px solid #4c1d95;background:#6d28d9;color:#fff;cursor:pointer;margin:.75rem .5rem 0 0}
button.secondary{background:#fff;color:#4c1d95}
.error{color:#991b1b;background:#fee2e2;border:1px solid #fca5a5;border-radius:6px;padding:.5rem .75rem}
.price{font-size:1.6rem;font-weight:700}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.3rem .4rem;border-bottom:1px solid #eee}
code{font-size:.95em}a{color:#6d28d9}
form.inline{display:inline}`;
