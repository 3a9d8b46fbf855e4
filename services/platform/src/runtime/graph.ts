// The service graph as the runtime reads it: start order is a topological sort of the declared calls (a
// service starts after everything it calls, so its peers are listening when its start-up hooks run), and a
// cycle is refused before anything starts, naming the services on it.
import type { ServiceName } from '../config/services';
import type { ServiceGraphNode } from './service';

export type ServiceGraph = Record<ServiceName, ServiceGraphNode>;

/**
 * The given services in start order: callees before callers; among services free to start, the order in
 * which they were given. Calls to services outside the set (another pod) do not constrain the order.
 */
export function startOrder(graph: ServiceGraph, services: readonly ServiceName[]): ServiceName[] {
  const wanted = new Set(services);
  const order: ServiceName[] = [];
  const state = new Map<ServiceName, 'visiting' | 'done'>();
  const visit = (name: ServiceName, path: ServiceName[]) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') {
      const cycle = [...path.slice(path.indexOf(name)), name].join(' → ');
      throw new Error(
        `The service graph has a cycle (${cycle}); a service's calls must not lead back to it.`,
      );
    }
    state.set(name, 'visiting');
    for (const callee of graph[name].calls) {
      if (callee !== name && wanted.has(callee)) visit(callee, [...path, name]);
    }
    state.set(name, 'done');
    order.push(name);
  };
  // Cycles anywhere in the graph are refused, not only among the services started here: a pod that runs
  // one service must agree with the all-in-one process about what the graph is.
  for (const name of Object.keys(graph) as ServiceName[]) {
    if (!wanted.has(name)) checkAcyclic(graph, name);
  }
  for (const name of services) visit(name, []);
  return order;
}

function checkAcyclic(graph: ServiceGraph, from: ServiceName, path: ServiceName[] = []): void {
  if (path.includes(from)) {
    const cycle = [...path.slice(path.indexOf(from)), from].join(' → ');
    throw new Error(`The service graph has a cycle (${cycle}); a service's calls must not lead back to it.`);
  }
  for (const callee of graph[from].calls) if (callee !== from) checkAcyclic(graph, callee, [...path, from]);
}

/** Who calls each service (the chart admits exactly these to its ports). */
export function callersOf(graph: ServiceGraph): Record<ServiceName, ServiceName[]> {
  const names = Object.keys(graph) as ServiceName[];
  const out = Object.fromEntries(names.map((n) => [n, [] as ServiceName[]])) as Record<
    ServiceName,
    ServiceName[]
  >;
  for (const caller of names) {
    for (const callee of graph[caller].calls) if (callee !== caller) out[callee].push(caller);
  }
  for (const n of names) out[n].sort();
  return out;
}
