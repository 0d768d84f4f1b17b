import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { getStore, getVisitorStore } from '@/lib/store';
import { HttpError } from './http-error';

/**
 * Read-only share links of a run: a random token (24 bytes, base64url) handed once to the run's
 * maker; the store keeps only its SHA-256, so the database alone does not open a link. A link
 * names one run and nothing else: the routes under `/api/shared/{token}` read that run's record,
 * view and events, and none controls, forks or lists anything. Revoking ends every link of the run.
 */

/** The token's shape: 32 base64url characters (24 random bytes). */
const TOKEN = /^[A-Za-z0-9_-]{32}$/;

function hashOf(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A new share link of a run the caller may read (the route checked it): the token, once. */
export async function createShare(runId: string, at = Date.now()): Promise<{ token: string; path: string }> {
  if (!(await getStore().getRun(runId))) throw new HttpError(404, `No run with id "${runId}"`);
  const token = randomBytes(24).toString('base64url');
  await getVisitorStore().addShare(runId, hashOf(token), at);
  return { token, path: `/share/${token}` };
}

/** Ends every share link of the run: how many were live. */
export function revokeShares(runId: string, at = Date.now()): Promise<number> {
  return getVisitorStore().revokeShares(runId, at);
}

/** What an unknown, malformed or revoked link is told: one answer, so no token is confirmed. */
export const NO_SHARED_RUN = 'No shared run at this link (it may have been revoked)';

/** The run a share link shows; 404 for a link never made, mistyped or revoked. */
export async function sharedRunId(token: string): Promise<string> {
  const runId = TOKEN.test(token) ? await getVisitorStore().runOfShare(hashOf(token)) : undefined;
  if (runId === undefined || !(await getStore().getRun(runId))) throw new HttpError(404, NO_SHARED_RUN);
  return runId;
}
