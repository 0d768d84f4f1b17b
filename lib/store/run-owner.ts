import { randomUUID } from 'node:crypto';
import os from 'node:os';

/**
 * Which open store wrote a run: host, process id and a nonce for this opening. A run still
 * `running` whose owner is gone was cut off by a restart; one whose owner is another live
 * process (a second server or worker on the same data folder) is still in flight there.
 */
export function createOwnerId(): string {
  return `${os.hostname()}:${process.pid}:${randomUUID()}`;
}

export function isOwnerGone({ owner, self }: { owner: string | null; self: string }): boolean {
  if (!owner) return true; // written before owners were recorded: its process is long gone
  if (owner === self) return false;
  const [host, pidText] = owner.split(':');
  const pid = Number(pidText);
  if (host !== os.hostname() || !Number.isInteger(pid) || pid <= 0) return false; // cannot tell: leave it
  if (pid === process.pid) return true; // this process, opened before: the run died with that opening
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
