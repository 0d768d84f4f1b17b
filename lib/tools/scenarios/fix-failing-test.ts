import { builtinScenario } from './builtin';

/** The default scenario: a real bug (a regex without the global flag) and a real test. Its files are tasks/fix-failing-test/. */
export const fixFailingTest = builtinScenario('fix-failing-test');
