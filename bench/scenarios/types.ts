// A bench scenario names the routes it measures on a running server. Each module may add a file
// to bench/scenarios/ exporting `scenario` (see catalog.ts); bench/run.ts runs them all against
// the same server and compares each with the constant-JSON route.
import type { Request } from 'autocannon';

export interface BenchTarget {
  /** printed name, e.g. "catalog: listing" */
  name: string;
  /** path for a simple GET, or `requests` for anything else */
  path?: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** autocannon request sequence (setupRequest can make every request different) */
  requests?: Request[];
  /** concurrent connections for this target (and its constant baseline); default BENCH_CONNECTIONS */
  connections?: number;
  /** the p99 target on PostgreSQL in ms, printed beside the PostgreSQL figure */
  p99TargetMs?: number;
}

export interface BenchScenario {
  name: string;
  /**
   * called once the server answers; may read from it to pick ids. `run.env` is the server's
   * database setting (DATABASE_URL on the PostgreSQL run), for scenarios that seed rows first.
   */
  targets(baseUrl: string, run: { database: string; env: Record<string, string> }): Promise<BenchTarget[]>;
}
