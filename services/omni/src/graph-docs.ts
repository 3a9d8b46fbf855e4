// What is written down from the declared service graph, so no copy drifts from it: the README's diagram
// and the chart's list of callers (its NetworkPolicies admit exactly those). `npm run graph:gen` writes
// both; the architecture test fails when either is stale.
import { callersOf, SERVICE_NAMES, type ServiceGraph } from '@omni/platform';

export const README_BEGIN = '<!-- service-graph:begin (npm run graph:gen) -->';
export const README_END = '<!-- service-graph:end -->';
export const CHART_GRAPH_FILE = 'charts/omni/files/service-graph.yaml';

/** A Mermaid flowchart: calls as solid arrows, events as dotted arrows through their topic. */
export function graphDiagram(graph: ServiceGraph): string {
  const lines = ['```mermaid', 'flowchart LR', '  browser([browser])'];
  for (const name of SERVICE_NAMES) {
    const node = graph[name];
    // Shared ports first, then the service's own providers.
    const opens = [...node.ports, ...Object.keys(node.providers ?? {})];
    lines.push(`  ${name}[${name}${opens.length ? `<br/><small>${opens.join(' · ')}</small>` : ''}]`);
  }
  for (const name of SERVICE_NAMES) if (graph[name].public) lines.push(`  browser -->|HTTP| ${name}`);
  for (const name of SERVICE_NAMES) {
    for (const callee of graph[name].calls) lines.push(`  ${name} --> ${callee}`);
  }
  const topics = [
    ...new Set(SERVICE_NAMES.flatMap((n) => [...graph[n].produces, ...graph[n].consumes])),
  ].sort();
  for (const topic of topics) {
    const id = `t_${topic.replace(/\W/g, '_')}`;
    lines.push(`  ${id}{{${topic}}}`);
    for (const name of SERVICE_NAMES)
      if (graph[name].produces.includes(topic)) lines.push(`  ${name} -.-> ${id}`);
    for (const name of SERVICE_NAMES)
      if (graph[name].consumes.includes(topic)) lines.push(`  ${id} -.-> ${name}`);
  }
  lines.push('```');
  return lines.join('\n');
}

/** The chart's copy of the graph: for each service, who may call it and whether it is public. */
export function chartGraph(graph: ServiceGraph): string {
  const callers = callersOf(graph);
  const lines = [
    "# Generated from the services' declarations (services/*/src/index.ts) by `npm run graph:gen`; do not edit.",
    "# Each service's NetworkPolicy admits gRPC and HTTP from exactly these callers.",
  ];
  for (const name of [...SERVICE_NAMES].sort()) {
    lines.push(`${name}:`);
    lines.push(`  public: ${graph[name].public === true}`);
    lines.push(`  callers: [${callers[name].join(', ')}]`);
  }
  return `${lines.join('\n')}\n`;
}

/** The README with its diagram section replaced by the current one. */
export function withDiagram(readme: string, graph: ServiceGraph): string {
  const begin = readme.indexOf(README_BEGIN);
  const end = readme.indexOf(README_END);
  if (begin < 0 || end < begin) throw new Error(`README.md has no ${README_BEGIN} … ${README_END} section.`);
  return `${readme.slice(0, begin + README_BEGIN.length)}\n${graphDiagram(graph)}\n${readme.slice(end)}`;
}
