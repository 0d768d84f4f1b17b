import { builtinScenario } from './builtin';

/** Twelve long runbooks read one after another fill a small context window in a dozen turns (the context gauge, proactive compaction, the overflow waterfall). Its files are lib/tools/tasks/builtin/growing-context/. */
export const growingContext = builtinScenario('growing-context');
