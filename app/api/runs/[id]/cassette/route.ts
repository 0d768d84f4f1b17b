import { buildCassette } from '@/lib/cassettes';
import { vendorDefaults } from '@/lib/protocol';
import { CassetteSummarySchema, SaveRunCassetteBodySchema } from '@/lib/protocol/http';
import {
  claimFor,
  getRunRegistry,
  HttpError,
  jsonResponse,
  knownKeysRedactor,
  ownedPost,
  type IdContext,
} from '@/lib/server';
import { getCassetteStore, getStore, getWireStore } from '@/lib/store';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Saves a finished run's model traffic as a cassette: 201 with its summary. The store keeps each
 * run's traffic as it crosses (lib/server/run-traffic.ts), whichever process executed the run; a
 * run still running, or one with no traffic kept (imported, or it made no request), is a 409 saying so.
 */
export async function POST(request: Request, context: IdContext): Promise<Response> {
  const options = { request, context, kind: 'run' as const, schema: SaveRunCassetteBodySchema };
  return ownedPost(options, async ({ id, visitor, body }) => {
    const run = await getStore().getRun(id);
    if (!run) throw new HttpError(404, `No run with id "${id}"`);
    if (await getRunRegistry().isLive(id))
      throw new HttpError(409, `Run "${id}" is still running; save its cassette once it has ended`);
    const traffic = await getWireStore().readTraffic(id);
    if (traffic.exchanges.length === 0) {
      throw new HttpError(
        409,
        `Run "${id}" has no model traffic kept (an imported run, or one that made no request); run it again to record it`,
      );
    }
    const { config } = run;
    const faults = config.faults.rules.filter((r) => r.enabled).length;
    const cassette = buildCassette({
      exchanges: traffic.exchanges,
      vendor: config.provider.vendor,
      model: config.provider.model || vendorDefaults(config.provider.vendor).model,
      note: `run ${id}: scenario ${config.scenario}, preset ${config.preset}, seed ${config.seed}${faults > 0 ? `, ${faults} fault rule${faults === 1 ? '' : 's'} on top (not in the recording)` : ''}`,
      clock: config.clock,
      // The stored config, as the run log wrote it (its keys removed).
      config,
      truncated: traffic.truncated,
      recordedAt: new Date(),
    });
    // The traffic was redacted as it was recorded (with the run's keys); the name is a person's text.
    const name = knownKeysRedactor().text(body.name ?? run.summary.title ?? `run ${id.slice(0, 8)}`);
    const saved = await getCassetteStore().saveCassette({ name, cassette, fromRun: id });
    await claimFor(visitor, 'cassette', saved.id);
    return jsonResponse(CassetteSummarySchema, saved, { status: 201 });
  });
}
