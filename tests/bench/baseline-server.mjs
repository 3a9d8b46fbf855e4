// The baseline: a bare Express JSON endpoint answering a fixed body, the fastest a Node HTTP JSON read
// can be on this machine. Started as its own process like the platform, so both get one core.
import express from 'express';

const body = process.env.BENCH_BODY ?? '{"ok":true}';
const app = express();
app.get('/api/pages/music/assets', (_req, res) => {
  res.type('application/json').send(body);
});
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
