// Picks the flight provider adapter from configuration: the sandbox (embedded default) or Duffel.
// One instance per application context, shared by routes and jobs.
import type { Config } from '../../config.js';
import type { AppContext } from '../../context.js';
import { loadExchangeRates } from '../catalog/supply.js';
import type { RatesPerEur } from '../checkout/rules.js';
import { DuffelFlightProvider } from './duffel.js';
import type { FlightProvider } from './provider.js';
import { SandboxFlightProvider } from './sandbox.js';

/** `rates`: today's exchange rates, to show offers billed in another currency in the market's. */
export function flightProviderFor(config: Config, rates?: () => Promise<RatesPerEur>): FlightProvider {
  if (config.flights.provider === 'duffel') {
    return new DuffelFlightProvider({
      baseUrl: config.flights.duffel.apiUrl,
      token: config.flights.duffel.apiToken,
      timeoutMs: config.flights.timeoutMs,
      orderTimeoutMs: config.flights.orderTimeoutMs,
      rates,
    });
  }
  return new SandboxFlightProvider();
}

const byContext = new WeakMap<AppContext, FlightProvider>();

export function flightProvider(ctx: AppContext): FlightProvider {
  let provider = byContext.get(ctx);
  if (!provider) {
    provider = flightProviderFor(ctx.config, () => loadExchangeRates(ctx.database.db));
    byContext.set(ctx, provider);
  }
  return provider;
}
