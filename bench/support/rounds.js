// Interleaved rounds: every contender (a baseline first, then the servers compared with it) runs once per
// round, in the same order, so that each ratio compares runs made side by side. A shared machine's other
// work then slows a baseline and its contenders alike instead of skewing one row.
import { cpuOf, isPostgres } from './process-cpu.js';
import { summarise } from './results.js';

/**
 * contenders: [{ name, run(round) => Promise<{ rate, ... }> }], the first being the baseline.
 * Returns per contender its runs, the rate's median/min/max, and (after the first) the rate over the
 * baseline's rate of the same round.
 */
export async function interleavedRounds(rounds, allContenders) {
  const contenders = only(allContenders);
  const runs = new Map(contenders.map((contender) => [contender.name, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const contender of contenders) runs.get(contender.name).push(await contender.run(round));
  }
  const baseline = runs.get(contenders[0].name);
  return contenders.map(({ name }, index) => {
    const own = runs.get(name);
    return {
      name,
      runs: own,
      rate: summarise(own.map((run) => run.rate)),
      p50: summarise(own.map((run) => run.p50)),
      p99: summarise(own.map((run) => run.p99)),
      cpu: own.every((run) => run.cpuPerRequest !== undefined)
        ? summarise(own.map((run) => run.cpuPerRequest))
        : undefined,
      postgresCpu: own.every((run) => run.postgresCpuPerRequest !== undefined)
        ? summarise(own.map((run) => run.postgresCpuPerRequest))
        : undefined,
      ...(index > 0 ? { ratio: summarise(own.map((run, round) => run.rate / baseline[round].rate)) } : {}),
    };
  });
}

/**
 * BENCH_ONLY=<text> keeps the baseline and the contenders whose name contains the text (e.g. `BENCH_ONLY=SQLite
 * node --cpu-prof bench/rest.js` profiles one store); the table then has only those rows.
 */
function only(contenders) {
  return contenders.filter((contender, index) => index === 0 || selected(contender.name));
}

/** Whether BENCH_ONLY (when set) keeps the contender or measure with this name. */
export function selected(name) {
  const wanted = process.env.BENCH_ONLY?.toLowerCase();
  return !wanted || name.toLowerCase().includes(wanted);
}

/** "median (min–max)" with the given decimals; the range is left out for a single run. */
export function formatSummary(summary, digits = 0) {
  if (!summary) return '-';
  const fixed = (value) => value.toFixed(digits);
  return summary.runs > 1
    ? `${fixed(summary.median)} (${fixed(summary.min)}–${fixed(summary.max)})`
    : fixed(summary.median);
}

/**
 * Runs a load and adds the CPU this process (the server's) used per request, in µs: steadier than a
 * rate on a shared machine, where the load generator and other work take turns on the same cores.
 * Beside it, what this machine's PostgreSQL processes used per request (µs; about 0 for the servers
 * that do not use it): a change to the statements shows there even when the rates move within the noise.
 */
export async function withServerCpu(load) {
  const started = process.cpuUsage();
  const postgresBefore = cpuOf(isPostgres);
  const result = await load();
  const used = process.cpuUsage(started);
  const postgresUsed = cpuOf(isPostgres) - postgresBefore;
  const perRequest = (micros) => (result.requests > 0 ? micros / result.requests : undefined);
  return {
    ...result,
    cpuPerRequest: perRequest(used.user + used.system),
    postgresCpuPerRequest: perRequest(postgresUsed * 1e6),
  };
}

/** Sum of the failure counters of every run of every contender (non-2xx, errors, wrong answers). */
export function failures(rows) {
  return rows.flatMap((row) => row.runs).reduce((sum, run) => sum + run.non2xx + run.errors + run.wrong, 0);
}
