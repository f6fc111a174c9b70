// CPU used by other processes of this machine, read from /proc: PostgreSQL's backends beside a server
// under load, or a server's workers. Linux only; where there is no /proc it reads 0.
import { readFileSync, readdirSync } from 'node:fs';

const TICKS = 100; // clock ticks per second of /proc/<pid>/stat (USER_HZ on Linux)

/**
 * CPU seconds used so far by the processes whose pids `select({ pid, ppid, name })` picks. A process
 * that ends between two readings takes its seconds with it: measure over a window in which the picked
 * processes live (a connection pool's backends during a load).
 */
export function cpuOf(select) {
  let entries;
  try {
    entries = readdirSync('/proc');
  } catch {
    return 0;
  }
  let ticks = 0;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const close = stat.lastIndexOf(')');
    const name = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    const ppid = Number(fields[1]);
    if (select({ pid: Number(entry), ppid, name })) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / TICKS;
}

/** every PostgreSQL process of this machine (the server's backends, its writers and autovacuum) */
export const isPostgres = ({ name }) => name === 'postgres';
