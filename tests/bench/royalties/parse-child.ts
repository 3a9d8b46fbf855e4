// The floor: a plain streaming parse of the same file in a process of its own — read it, split each line
// on tabs, count the records — what any importer must at least do. Prints {ms, lines, peakRssMb}.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

async function main() {
  const file = process.argv[2]!;
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  let lines = 0;
  let cells = 0;
  for await (const line of createInterface({
    input: createReadStream(file, { highWaterMark: 1 << 20 }),
    crlfDelay: Infinity,
  })) {
    if (line.startsWith('SR08')) lines += 1;
    cells += line.split('\t').length;
  }
  const ms = performance.now() - started;
  clearInterval(sampler);
  process.stdout.write(`${JSON.stringify({ ms, lines, cells, peakRssMb: peak / 2 ** 20 })}\n`);
}

void main();
