import { builtinScenario } from './builtin';

/** A 2,400-line log whose root cause sits at line 1,742: reading it whole is truncated, so the model must page or search (the output-truncation lesson). Its files are lib/tools/tasks/builtin/huge-log/. */
export const hugeLog = builtinScenario('huge-log');
