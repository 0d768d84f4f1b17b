import type { AnswerFault, SimPolicyId, SubagentFault } from '@/lib/protocol';
import { withAnswerFormat, type AnswerFaultReport } from './answer-format';
import { withDelegation } from './delegation';
import type { Scenario } from '@/lib/tools/scenario';
import type { Policy } from '../types';
import { createBadArgsPolicy } from './bad-args';
import { createDamagedArgsPolicy } from './damaged-args';
import { createGuessPathsPolicy } from './guess-paths';
import { createHallucinateToolPolicy } from './hallucinate-tool';
import { createIgnoreTruncationPolicy } from './ignore-truncation';
import { createLongOutputPolicy } from './long-output';
import { createParallelReadsPolicy } from './parallel-reads';
import { createRepeatOnFailurePolicy } from './repeat-on-failure';
import { testRewritingScenario } from './rewrite-test';
import { freeTaskTurn } from './free-task';
import { withSummaries } from './summary';
import { withTitles } from './title';
import { createWorkerPolicy } from './worker';
import { createWriteWholeFilePolicy } from './write-whole-file';

/**
 * The simulated model a scenario (or a run config override) names; it also answers title
 * requests. Every one answers in the format a request asks for (`answers`: the run's answer
 * faults, lib/sim/policies/answer-format.ts, each reported to `onAnswerFault` as it strikes);
 * offered a delegate tool, it delegates (`subagents`: the run's sub-agent faults,
 * lib/sim/policies/delegation.ts).
 */
export function createPolicy(
  id: SimPolicyId,
  scenario: Scenario,
  answers?: readonly AnswerFault[],
  onAnswerFault?: (report: AnswerFaultReport) => void,
  subagents?: readonly SubagentFault[],
): Policy {
  // The test-rewriting model works from its own view of the task, its title included.
  const acting = id === 'rewrite-test' ? testRewritingScenario(scenario) : scenario;
  return withSummaries(
    withTitles({
      policy: withAnswerFormat(withDelegation(behaviour(id, acting), subagents), answers, onAnswerFault),
      scenario: acting,
    }),
  );
}

/**
 * The simulated model for a task the scenario has no script for (the CLI's --task, the
 * config's `task`): it looks around and answers from what it read.
 */
export function createFreeTaskPolicy(
  scenario: Scenario,
  answers?: readonly AnswerFault[],
  onAnswerFault?: (report: AnswerFaultReport) => void,
  subagents?: readonly SubagentFault[],
): Policy {
  return withSummaries(
    withTitles({
      policy: withAnswerFormat(withDelegation(freeTaskTurn, subagents), answers, onAnswerFault),
      scenario,
    }),
  );
}

function behaviour(id: SimPolicyId, scenario: Scenario): Policy {
  switch (id) {
    case 'worker':
      return createWorkerPolicy({ scenario });
    case 'repeat-on-failure':
      return createRepeatOnFailurePolicy({ scenario });
    case 'hallucinate-tool':
      return createHallucinateToolPolicy({ scenario });
    case 'bad-args':
      return createBadArgsPolicy({ scenario });
    case 'damaged-args':
      return createDamagedArgsPolicy({ scenario });
    case 'ignore-truncation':
      return createIgnoreTruncationPolicy({ scenario });
    case 'long-output':
      return createLongOutputPolicy({ scenario });
    case 'rewrite-test':
      return createWorkerPolicy({ scenario });
    case 'parallel-reads':
      return createParallelReadsPolicy({ scenario });
    case 'guess-paths':
      return createGuessPathsPolicy({ scenario });
    case 'write-whole-file':
      return createWriteWholeFilePolicy({ scenario });
  }
}
