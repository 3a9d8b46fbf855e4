// `npm run bench:billing`: 1,000 signed Stripe webhook events through the gateway's HTTP endpoint on a
// started platform (a child process, as `npm start` runs it): raw body → gRPC → billing verifies, dedupes,
// orders, writes state + audit + outbox in one transaction. Target: p99 under 20 ms per event. Beside it,
// in the same run, two baselines: GET /api/billing/plans (the gateway alone) and a webhook with a bad
// signature (the same hop to billing, refused before any write). Writes tests/.artifacts/bench-billing.json.
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, startPlatformProcess } from '../support/process';
import { lifecycle, type StripeEventJson, seeded, sign, TEST_WEBHOOK_SECRET } from '../support/stripe-events';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const P99_TARGET_MS = 20;

interface Figures {
  label: string;
  n: number;
  p50: number;
  p99: number;
  max: number;
  perSec: number;
  non2xx: number;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const round = (ms: number) => Math.round(ms * 100) / 100;

/** Sends `n` requests, `concurrency` at a time, timing each from send to the end of its body. */
async function measure(
  label: string,
  n: number,
  concurrency: number,
  request: (i: number) => { url: string; init?: RequestInit },
  expected: number,
): Promise<Figures> {
  const times: number[] = [];
  let non2xx = 0;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < n) {
      const { url, init } = request(next++);
      const t0 = performance.now();
      const res = await fetch(url, init);
      await res.arrayBuffer();
      times.push(performance.now() - t0);
      if (res.status !== expected) non2xx++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const wall = performance.now() - started;
  times.sort((a, b) => a - b);
  return {
    label,
    n,
    p50: round(quantile(times, 0.5)),
    p99: round(quantile(times, 0.99)),
    max: round(times[times.length - 1]!),
    perSec: Math.round((n / wall) * 1000),
    non2xx,
  };
}

/** Realistic events: lifecycles of many subscriptions, with 10% redeliveries, in shuffled order. */
function workload(n: number): StripeEventJson[] {
  const rand = seeded(2026);
  const unique: StripeEventJson[] = [];
  const now = Math.floor(Date.now() / 1000);
  while (unique.length < n * 0.9) {
    const { events } = lifecycle({
      accountId: randomUUID(),
      price: 'price_omni_pro_monthly',
      start: now - 86400 * 300,
      renewals: 4,
      end: (['active', 'past_due', 'cancel_at_period_end', 'deleted'] as const)[Math.floor(rand() * 4)]!,
      rand,
    });
    unique.push(...events);
  }
  const all = unique.slice(0, Math.ceil(n * 0.9));
  while (all.length < n) all.push(all[Math.floor(rand() * all.length)]!);
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all;
}

function webhookRequest(base: string, e: StripeEventJson, signature?: string) {
  const payload = JSON.stringify(e);
  return {
    url: `${base}/api/billing/webhooks/stripe`,
    init: {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': signature ?? sign(payload),
      },
      body: payload,
    },
  };
}

async function main() {
  const omni = await startPlatformProcess({
    env: { LOG_LEVEL: 'error', STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET },
  });
  try {
    const base = omni.url.replace('localhost', '127.0.0.1');
    // Warm up every path once (JIT, gRPC channel, store files).
    const warm = workload(40);
    await measure('warm-up', warm.length, 1, (i) => webhookRequest(base, warm[i]!), 200);

    const sequential = workload(EVENTS);
    const parallel = workload(EVENTS);
    const results: Figures[] = [];
    results.push(
      await measure(
        'GET /api/billing/plans (gateway alone)',
        EVENTS,
        1,
        () => ({ url: `${base}/api/billing/plans` }),
        200,
      ),
    );
    results.push(
      await measure(
        'webhook, bad signature (gateway → billing, refused)',
        EVENTS,
        1,
        (i) => webhookRequest(base, sequential[i]!, 't=1,v1=00'),
        400,
      ),
    );
    results.push(
      await measure(
        'webhook, signed, one at a time',
        EVENTS,
        1,
        (i) => webhookRequest(base, sequential[i]!),
        200,
      ),
    );
    results.push(
      await measure(
        `webhook, signed, ${CONCURRENCY} at a time`,
        EVENTS,
        CONCURRENCY,
        (i) => webhookRequest(base, parallel[i]!),
        200,
      ),
    );

    console.log(
      `\nBilling webhooks: ${EVENTS} Stripe-shaped events (lifecycles, 10% redeliveries, shuffled)\n`,
    );
    console.log('| run | n | p50 ms | p99 ms | max ms | per s | unexpected status |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const r of results)
      console.log(`| ${r.label} | ${r.n} | ${r.p50} | ${r.p99} | ${r.max} | ${r.perSec} | ${r.non2xx} |`);
    const signed = results[2]!;
    console.log(
      `\nsigned webhook p99 ${signed.p99} ms one at a time (target < ${P99_TARGET_MS} ms: ${signed.p99 < P99_TARGET_MS ? 'met' : 'NOT met'}); ` +
        `${results[3]!.p99} ms at ${CONCURRENCY} concurrent\n`,
    );
    mkdirSync(join(repoRoot, 'tests/.artifacts'), { recursive: true });
    writeFileSync(
      join(repoRoot, 'tests/.artifacts/bench-billing.json'),
      JSON.stringify(
        { at: new Date().toISOString(), events: EVENTS, concurrency: CONCURRENCY, results },
        null,
        2,
      ),
    );
    if (results.some((r) => r.label !== 'warm-up' && r.non2xx > 0)) process.exitCode = 1;
  } finally {
    await omni.stop({ hard: !process.env.PROF_DIR });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
