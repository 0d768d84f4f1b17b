import { LESSON as injectionGuard } from '@/lib/mechanisms/injection-guard/lesson';
import { LESSON as interruptedRepair } from '@/lib/mechanisms/interrupted-repair/lesson';
import { LESSON as parallelToolCalls } from '@/lib/mechanisms/parallel-tool-calls/lesson';
import { LESSON as structuredAnswer } from '@/lib/mechanisms/structured-answer/lesson';
import { LESSON as subagents } from '@/lib/mechanisms/subagents/lesson';

/**
 * Each mechanism module's lesson and the count of its steps in a run's log, as lib/lessons
 * reads them (the lessons list, each lesson's report). A module is one folder under lib/mechanisms/.
 */
export const MODULE_LESSONS = [
  { id: 'interrupted-repair', ...interruptedRepair },
  { id: 'parallel-tool-calls', ...parallelToolCalls },
  { id: 'structured-answer', ...structuredAnswer },
  { id: 'injection-guard', ...injectionGuard },
  { id: 'subagents', ...subagents },
] as const;
