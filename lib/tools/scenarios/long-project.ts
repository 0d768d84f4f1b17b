import { builtinScenario } from './builtin';

/** Twenty-three similar region modules, one with a typo in its VAT rate: a worker that reads them one by one grows its context every turn (old-result compaction, the context budget). Its files are lib/tools/tasks/builtin/long-project/. */
export const longProject = builtinScenario('long-project');
