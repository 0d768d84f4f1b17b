import fs from 'node:fs';

/**
 * What the kernel counts for this process (Linux /proc), for figures a sampling timer on a
 * busy event loop could miss: the RSS high-water mark between two points, and the main
 * thread's own CPU time apart from the worker and V8 helper threads. Null where /proc is not
 * there (the figure then says it was sampled instead).
 */

const MB = 1024 * 1024;

/** Starts a new RSS high-water mark at the current RSS; false where the kernel does not allow it. */
export function resetPeakRss(): boolean {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

/** The process's RSS high-water mark in MB since start or the last resetPeakRss. */
export function peakRssMb(): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    return match ? (Number(match[1]) * 1024) / MB : null;
  } catch {
    return null;
  }
}

/** CPU ms (user + system) the main thread has used, to the kernel's tick (10 ms). */
export function mainThreadCpuMs(): number | null {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces: utime is the 12th, stime the 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return null;
  }
}

/** USER_HZ: 100 on every Linux Node runs on. */
const ticksPerSecond = 100;
