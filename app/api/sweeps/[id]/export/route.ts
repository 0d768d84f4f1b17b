import { errorResponse, getSweepRegistry, HttpError, requestOwnsSweep } from '@/lib/server';
import { getSweepStore } from '@/lib/store';
import { rowsToCsv, runsToCsv, sweepExport } from '@/lib/sweeps/sweep-export';
import { SweepExportQuerySchema } from '@/lib/protocol/http';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** A sweep as a download: JSON (sweep, grid, table, every run) or CSV (the table, or the runs). */
export async function GET(
  request: Request,
  { params }: { params: Promise<{ id: string }> },
): Promise<Response> {
  try {
    const { id } = await params;
    // Room mode: another visitor's is answered as a missing one is.
    await requestOwnsSweep(request, id);
    const { format, what } = SweepExportQuerySchema.parse(
      Object.fromEntries(new URL(request.url).searchParams),
    );
    const result = await getSweepRegistry().read(id);
    if (!result) throw new HttpError(404, `No sweep with id "${id}"`);
    const runs = await getSweepStore().readSweepMetrics(id);
    const [body, type, name] =
      format === 'json'
        ? [
            JSON.stringify(
              sweepExport({ sweep: result.sweep, grid: result.grid, rows: result.rows, runs }),
              null,
              2,
            ),
            'application/json',
            `${id}.json`,
          ]
        : what === 'table'
          ? [rowsToCsv(result.rows), 'text/csv', `${id}-table.csv`]
          : [runsToCsv(runs), 'text/csv', `${id}-runs.csv`];
    return new Response(body, {
      headers: {
        'Content-Type': `${type}; charset=utf-8`,
        'Content-Disposition': `attachment; filename="${name}"`,
        'Cache-Control': 'no-store',
      },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
