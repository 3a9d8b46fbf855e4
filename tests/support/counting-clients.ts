// A service module whose gRPC clients count their calls: a suite can say how often a service asked
// another one for something (delivery asking catalog for a release, storage for a file's facts).
import type { ServiceModule } from '@omni/platform';

export class CountingClients {
  /** Calls per "<service>.<method>". */
  readonly calls: Record<string, number> = {};

  module(service: ServiceModule): ServiceModule {
    return {
      ...service,
      init: (ctx) =>
        service.init({
          ...ctx,
          client: ((name: string, definition: unknown, ...rest: unknown[]) => {
            const client = (ctx.client as (...args: unknown[]) => object)(name, definition, ...rest);
            return new Proxy(client, {
              get: (target, method, receiver) => {
                const value = Reflect.get(target, method, receiver);
                if (typeof value !== 'function' || typeof method !== 'string') return value;
                return (...args: unknown[]) => {
                  const key = `${name}.${method}`;
                  this.calls[key] = (this.calls[key] ?? 0) + 1;
                  return value.apply(target, args);
                };
              },
            });
          }) as typeof ctx.client,
        }),
    };
  }

  reset(): void {
    for (const key of Object.keys(this.calls)) delete this.calls[key];
  }
}
