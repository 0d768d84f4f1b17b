import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The layer rule (eslint.config.mjs) on small fixture files, linted with the repo's own config as
 * though they stood at the paths named: a relative import is ranked like the @/ import it
 * resolves to. `npm run lint` fails on each file marked as reported.
 */
const FIXTURES: { file: string; code: string; reported: boolean }[] = [
  // Upward, relative: the hole the alias-only patterns left.
  {
    file: 'lib/engine/upward.ts',
    code: "import { createRunLog } from '../runtime/run-log';\nexport const x = createRunLog;\n",
    reported: true,
  },
  { file: 'lib/engine/reexport.ts', code: "export * from '../runtime/run-log';\n", reported: true },
  {
    file: 'lib/engine/named-reexport.ts',
    code: "export { createRunLog } from '../runtime/run-log';\n",
    reported: true,
  },
  {
    file: 'lib/engine/dynamic.ts',
    code: "export const load = () => import('../sweeps/execute-sweep');\n",
    reported: true,
  },
  {
    file: 'lib/engine/retry/deep.ts',
    code: "import { launchRun } from '../../runtime/launch-run';\nexport const x = launchRun;\n",
    reported: true,
  },
  // Equal ranks do not import each other, relative or not.
  {
    file: 'lib/protocol/sideways-room.ts',
    code: "import { RealClock } from '../clock/real-clock';\nexport const x = RealClock;\n",
    reported: true,
  },
  // The browser reaches the server only over HTTP.
  {
    file: 'lib/client/api/reach.ts',
    code: "import { getStore } from '../../store';\nexport const x = getStore;\n",
    reported: true,
  },
  {
    file: 'components/timeline/reach.tsx',
    code: "import { getRunRegistry } from '../../lib/server';\nexport const x = getRunRegistry;\n",
    reported: true,
  },
  // The store lists a run's config with the mechanisms' words, never a lesson's.
  {
    file: 'lib/store/wording.ts',
    code: "import { LESSONS } from '@/lib/lessons';\nexport const x = LESSONS;\n",
    reported: true,
  },
  // Browser code takes a value from lib/protocol by path; the index loads every schema. Types are free.
  {
    file: 'components/timeline/index-value.tsx',
    code: "import { VENDOR_DEFAULTS } from '@/lib/protocol';\nexport const x = VENDOR_DEFAULTS;\n",
    reported: true,
  },
  {
    file: 'lib/run-view/index-value.ts',
    code: "import { checkNever } from '@/lib/protocol';\nexport const x = checkNever;\n",
    reported: true,
  },
  {
    file: 'lib/client/index-type.ts',
    code: "import type { RunEvent } from '@/lib/protocol';\nexport type X = RunEvent;\n",
    reported: false,
  },
  {
    file: 'lib/client/by-path.ts',
    code: "import { VENDOR_DEFAULTS } from '@/lib/protocol/models';\nexport const x = VENDOR_DEFAULTS;\n",
    reported: false,
  },
  {
    file: 'lib/server/index-value.ts',
    code: "import { VENDOR_DEFAULTS } from '@/lib/protocol';\nexport const x = VENDOR_DEFAULTS;\n",
    reported: false,
  },
  // The run view's fold sits below the browser's code, the server and the matrix, which read it.
  {
    file: 'lib/run-view/upward.ts',
    code: "import { logWhole } from '../client/run-view/run-store';\nexport const x = logWhole;\n",
    reported: true,
  },
  {
    file: 'lib/matrix/reads-why.ts',
    code: "import { findContradictions } from '@/lib/run-view/explain/why-claims';\nexport const x = findContradictions;\n",
    reported: false,
  },
  // A mechanism module's about.ts is zod-free and read by lib/protocol (its ids and defaults come
  // through lib/mechanisms/modules/about.ts): it sits at lib/protocol's rank, like lib/mechanisms/module.ts.
  {
    file: 'lib/protocol/reads-modules.ts',
    code: "import { MODULE_TOOLS_PRESETS } from '@/lib/mechanisms/modules/about';\nexport const x = MODULE_TOOLS_PRESETS;\n",
    reported: false,
  },
  {
    file: 'lib/mechanisms/some-module/about.ts',
    code: "import { GLOSSARY } from '../glossary';\nexport const x = GLOSSARY;\n",
    reported: true,
  },
  {
    file: 'lib/mechanisms/module.ts',
    code: "import type { Mechanism } from '@/lib/mechanisms/mechanisms';\nexport type X = Mechanism;\n",
    reported: true,
  },
  // Aliased upward: reported as before.
  {
    file: 'lib/engine/aliased.ts',
    code: "import { createRunLog } from '@/lib/runtime/run-log';\nexport const x = createRunLog;\n",
    reported: true,
  },
  // Within a room (sideways) and downward: allowed.
  {
    file: 'lib/engine/recovery/within.ts',
    code: "import { retry } from '../retry/retry';\nexport const x = retry;\n",
    reported: false,
  },
  {
    file: 'lib/engine/same-folder.ts',
    code: "import { IdleWatchdog } from './idle-watchdog';\nexport const x = IdleWatchdog;\n",
    reported: false,
  },
  {
    file: 'lib/engine/downward.ts',
    code: "import { formatMs } from '../protocol/format-duration';\nexport const x = formatMs;\n",
    reported: false,
  },
  {
    file: 'lib/runtime/downward-deep.ts',
    code: "import { classifyError } from '../engine/recovery/classify';\nexport const x = classifyError;\n",
    reported: false,
  },
];

const ROOT = path.resolve(__dirname, '../..');
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

describe('lint ranks relative imports like aliased ones', () => {
  it.each(FIXTURES)('$file', async ({ file, code, reported }) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
    const layers = result!.messages.filter((m) =>
      [
        'layers/relative-imports',
        'no-restricted-imports',
        'no-restricted-syntax',
        '@typescript-eslint/no-restricted-imports',
      ].includes(m.ruleId ?? ''),
    );
    if (reported)
      expect(layers.map((m) => m.message)).toEqual([
        expect.stringMatching(/rank|lower rooms|lowest files|through lib\/client|lesson wording|by path/),
      ]);
    else expect(result!.messages).toEqual([]);
  });
});
