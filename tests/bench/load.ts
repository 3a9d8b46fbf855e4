// A small load runner on autocannon (no k6 on these machines): fixed connections and duration, with a
// warm-up that is not counted.
import autocannon from 'autocannon';

export interface LoadResult {
  label: string;
  requestsPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function load(label: string, url: string, connections = 64, seconds = 10): Promise<LoadResult> {
  await autocannon({ url, connections, duration: 2 });
  const r = await autocannon({ url, connections, duration: seconds });
  return {
    label,
    requestsPerSec: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}
