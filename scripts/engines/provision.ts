// Provisioning every engine (or some) at once: the downloads wait on the network while the Go builds use
// the cores. Each engine's own provision() is idempotent, so a provisioned one costs nothing.
import { ENGINES } from './index';
import { type Engine, EngineError, type Log } from './support';

export interface Provisioned {
  engine: Engine;
  /** Seconds it took; 0 when it was already there. */
  seconds: number;
  error?: string;
}

export async function provisionEngines(
  names: string[] = [],
  log: Log = () => undefined,
): Promise<Provisioned[]> {
  const chosen = names.length ? ENGINES.filter((e) => names.includes(e.name)) : ENGINES;
  return Promise.all(
    chosen.map(async (engine): Promise<Provisioned> => {
      const started = Date.now();
      const was = engine.missing();
      try {
        await engine.provision((line) => log(`${engine.name}: ${line}`));
        return { engine, seconds: was ? (Date.now() - started) / 1000 : 0 };
      } catch (err) {
        const message = err instanceof EngineError ? err.message : String((err as Error).stack ?? err);
        return { engine, seconds: (Date.now() - started) / 1000, error: message };
      }
    }),
  );
}
