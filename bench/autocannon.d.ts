// Minimal types for the parts of autocannon's programmatic API that bench/run.ts uses (the package ships none).
declare module "autocannon" {
  export type Percentiles = {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
  };

  export type Result = {
    url: string;
    connections: number;
    duration: number;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    resets: number;
    "2xx": number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Percentiles & { totalCount: number };
    requests: Percentiles & { sent: number };
    throughput: Percentiles;
  };

  export type Options = {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    timeout?: number;
    headers?: Record<string, string>;
    title?: string;
  };

  export type Instance = PromiseLike<Result> & { stop: () => void };

  function autocannon(options: Options): Instance;
  export default autocannon;
}
