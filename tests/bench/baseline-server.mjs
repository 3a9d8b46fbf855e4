// The baselines: an endpoint answering a fixed JSON body, either through bare Express (the quality bar's
// yardstick) or, with BENCH_SERVER=node, a bare Node handler writing a ready buffer (the ceiling any
// Node server reaches on this machine). Started as its own process like the platform, so each gets one core.
import { createServer } from 'node:http';
import express from 'express';

const body = process.env.BENCH_BODY ?? '{"ok":true}';
// BENCH_PATH and BENCH_TYPE serve another body at another path (the Music page's HTML, for its ceiling).
const path = process.env.BENCH_PATH ?? '/api/pages/music/assets';
const type = process.env.BENCH_TYPE ?? 'application/json; charset=utf-8';
let server;
if (process.env.BENCH_SERVER === 'node') {
  const bytes = Buffer.from(body);
  const headers = { 'Content-Type': type, 'Content-Length': bytes.length };
  server = createServer((req, res) => {
    if (req.url !== path) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, headers).end(bytes);
  });
} else {
  const app = express();
  app.get(path, (_req, res) => {
    res.type(type).send(body);
  });
  server = createServer(app);
}
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
