// Picks the flight provider adapter from configuration: the sandbox (embedded default) or Duffel.
// One instance per application context, shared by routes and jobs.
import type { Config } from '../../config.js';
import type { AppContext } from '../../context.js';
import { DuffelFlightProvider } from './duffel.js';
import type { FlightProvider } from './provider.js';
import { SandboxFlightProvider } from './sandbox.js';

export function flightProviderFor(config: Config): FlightProvider {
  if (config.flights.provider === 'duffel') {
    return new DuffelFlightProvider({
      baseUrl: config.flights.duffel.apiUrl,
      token: config.flights.duffel.apiToken,
      timeoutMs: config.flights.timeoutMs,
    });
  }
  return new SandboxFlightProvider();
}

const byContext = new WeakMap<AppContext, FlightProvider>();

export function flightProvider(ctx: AppContext): FlightProvider {
  let provider = byContext.get(ctx);
  if (!provider) {
    provider = flightProviderFor(ctx.config);
    byContext.set(ctx, provider);
  }
  return provider;
}
