// The log-read figure's opens (see log-read.ts), bundled in a process of their own over the store
// the bench's process wrote; prints one JSON line for the bench to report.
import { readLogs } from './log-read';

console.log(JSON.stringify(await readLogs(process.env.BENCH_LOG_READ_DIR!)));
process.exit(0);
