// Writes what is derived from the declared service graph: README.md's diagram and the chart's callers file.
// With --check, writes nothing and fails when either is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHART_GRAPH_FILE, chartGraph, withDiagram } from '../services/omni/src/graph-docs';
import { MODULES } from '../services/omni/src/modules';

const root = join(__dirname, '..');
const check = process.argv.includes('--check');
const outputs: [string, string][] = [
  ['README.md', withDiagram(readFileSync(join(root, 'README.md'), 'utf8'), MODULES)],
  [CHART_GRAPH_FILE, chartGraph(MODULES)],
];
let stale = 0;
for (const [file, text] of outputs) {
  let current = '';
  try {
    current = readFileSync(join(root, file), 'utf8');
  } catch {}
  if (current === text) continue;
  if (check) {
    console.error(`${file} does not match the declared service graph: run npm run graph:gen`);
    stale++;
  } else {
    writeFileSync(join(root, file), text);
    console.log(`wrote ${file}`);
  }
}
process.exit(stale ? 1 : 0);
