import { ScenarioListSchema } from '@/lib/protocol/http';
import { warmUp } from '@/lib/runtime/warm-up';
import { errorResponse, jsonResponse, scenarioList } from '@/lib/server';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * The scenarios a run can use, for pickers: an array of { id, title, summary, task, tools }
 * (no files, no check code); `tools` are the names and descriptions the model is shown, so the
 * playground can show each description it lets a person replace.
 */
export async function GET(): Promise<Response> {
  // The playground asks for scenarios first: start paying the first run's one-time costs now.
  void warmUp();
  try {
    return jsonResponse(ScenarioListSchema, scenarioList());
  } catch (error) {
    return errorResponse(error);
  }
}
