// The infrastructure releases in deploy/infra name each other by address; their charts are remote, so instead of a
// render these addresses are checked against each other and against the defaults in charts/omni/values.yaml.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

const repoRoot = path.resolve(__dirname, '../..');
const read = (file: string) => parse(readFileSync(path.join(repoRoot, file), 'utf8'));

const tempo = read('deploy/infra/tempo.values.yaml');
const grafana = read('deploy/infra/grafana.values.yaml');
const collector = read('deploy/infra/otel-collector.values.yaml');
const omni = read('charts/omni/values.yaml');
const port = (endpoint: string) => endpoint.split(':').at(-1);

test("Grafana's Tempo data source points at Tempo's HTTP API", () => {
  const sources = grafana.datasources['datasources.yaml'].datasources as { type: string; url: string }[];
  const source = sources.find((entry) => entry.type === 'tempo');
  expect(source?.url).toBe(`http://${tempo.fullnameOverride}:${tempo.tempo.server.http_listen_port}`);
});

test("the collector exports traces to Tempo's OTLP gRPC receiver", () => {
  const receiver = tempo.tempo.receivers.otlp.protocols.grpc.endpoint as string;
  expect(collector.config.exporters['otlp/tempo'].endpoint).toBe(
    `${tempo.fullnameOverride}:${port(receiver)}`,
  );
});

test('the services send telemetry to the collector release', () => {
  expect(omni.config.telemetry.otlpEndpoint).toBe(`http://${collector.fullnameOverride}:4318`);
});
