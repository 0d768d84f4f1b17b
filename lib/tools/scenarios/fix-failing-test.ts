import { builtinScenario } from './builtin';

/** The default scenario: a real bug (a regex without the global flag) and a real test. Its files are lib/tools/tasks/builtin/fix-failing-test/. */
export const fixFailingTest = builtinScenario('fix-failing-test');
