import 'server-only';
import {
  MCP_SERVER_NOT_FROM_WEB,
  TASK_DIR_NOT_FROM_WEB,
  type ForkSpec,
  type RunConfig,
} from '@/lib/protocol';
import { planFork, type ForkStart } from '@/lib/runtime/plan-fork';
import type { RunStore } from '@/lib/store';
import { HttpError } from './http-error';

/**
 * A fork request against the store: the parent's record and log, planned into the child's
 * config and starting point. 404 for an unknown parent, 400 naming the `fork.*` field otherwise.
 */
export async function resolveFork(options: { store: RunStore; spec: ForkSpec; keySent: boolean }): Promise<{
  config: RunConfig;
  fork: ForkStart;
}> {
  const { store, spec, keySent } = options;
  const record = await store.getRun(spec.runId);
  const plan = planFork({
    spec,
    parent: record ? { config: record.config, running: record.summary.status === 'running' } : undefined,
    events: record ? await store.readEvents({ runId: spec.runId }) : [],
    keySent,
  });
  if (!plan.ok)
    throw new HttpError(
      plan.status,
      plan.status === 404 ? 'No such run to fork' : 'The run cannot be forked as asked',
      plan.problems,
    );
  // The web never reads a path: a run on a task folder (the CLI's or a sweep file's) is not continued here.
  if (plan.config.taskDir)
    throw new HttpError(400, 'The run cannot be forked as asked', [
      `config.taskDir (from the parent's config): ${TASK_DIR_NOT_FROM_WEB}`,
    ]);
  // Nor does it start a command or reach a URL a CLI run named as an MCP server.
  const own = plan.config.mcp?.servers.findIndex((server) => 'command' in server || 'url' in server) ?? -1;
  if (own >= 0)
    throw new HttpError(400, 'The run cannot be forked as asked', [
      `config.mcp.servers.${own} (from the parent's config): ${MCP_SERVER_NOT_FROM_WEB}`,
    ]);
  return { config: plan.config, fork: plan.fork };
}

/**
 * Config problems of a fork, named by what the request chose: the provider, model and address
 * are `fork.provider` / `fork.model` / `fork.baseUrl`; anything else came from the parent's config.
 */
export function forkProblem(problem: string): string {
  if (problem.startsWith('apiKey')) return problem;
  if (problem.startsWith('provider.baseUrl'))
    return `fork.baseUrl${problem.slice('provider.baseUrl'.length)}`;
  if (problem.startsWith('provider.model')) return `fork.model${problem.slice('provider.model'.length)}`;
  if (problem.startsWith('provider.')) return `fork.provider: ${problem.slice('provider.'.length)}`;
  return `config.${problem} (from the parent's config)`;
}
