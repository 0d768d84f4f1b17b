/**
 * Next calls `register` once when a server process starts, before it serves a request. Only the
 * Node.js runtime of a serving process has the store and the run threads: it boots the server
 * (lib/server/boot.ts). The import sits inside the runtime check so the Edge build of this file,
 * which Next also compiles, never sees Node-only code.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // `next build` loads this file too, to prerender pages: a build takes up no one's runs.
  if (process.env.NEXT_PHASE === 'phase-production-build') return;
  const { bootServer } = await import('@/lib/server/boot');
  await bootServer();
}
