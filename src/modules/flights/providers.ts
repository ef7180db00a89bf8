// Picks the flight provider adapter from configuration: the sandbox (embedded default) or HTTP.
import type { Config } from '../../config.js';
import { HttpFlightProvider } from './http-provider.js';
import type { FlightProvider } from './provider.js';
import { SandboxFlightProvider } from './sandbox.js';

export function flightProviderFor(config: Config): FlightProvider {
  if (config.flights.provider === 'http') {
    return new HttpFlightProvider({ baseUrl: config.flights.apiUrl, token: config.flights.apiToken });
  }
  return new SandboxFlightProvider();
}
