'use client';

import type { RunConfig } from '@/lib/protocol';
import { isPlaceholderConfig } from '@/lib/protocol/imported-config';
import { describeConfig, swapsSummary } from '@/lib/client/explain/describe-config';
import type { SwapView } from '@/lib/run-view/fold-takeover';
import { CopyButton } from '@/components/ui/copy-button';
import { JsonView } from '@/components/ui/json-view';

/**
 * The full config that produced a run (from its run_start event): collapsed to one line of
 * the essentials, open to every field, with the exact JSON to copy.
 */
export function RunConfigPanel({ config, swaps = [] }: { config: RunConfig; swaps?: readonly SwapView[] }) {
  const lines = describeConfig(config);
  const swapped = swapsSummary(config, swaps);
  const value = (label: string) => lines.find((l) => l.label === label)?.value ?? '';
  const faults = value('faults');
  const placeholder = isPlaceholderConfig(config);
  const short = placeholder
    ? [
        'not recovered: the imported trace carries no Loop Lab config; the fields below are the importer’s placeholder',
      ]
    : [
        value('vendor / model'),
        // Beside the vendor it started on, so the one-line summary never hides a change of vendor.
        ...(swapped ? [swapped] : []),
        `preset ${value('preset')}`,
        `seed ${value('seed')}`,
        faults === 'none' ? 'no faults' : `faults: ${faults}`,
        ...(config.promptSet ? [`prompt set ${value('prompt set')}`] : []),
      ];
  return (
    <details data-testid="run-config" className="border-b border-line bg-panel px-4 py-1 text-2xs">
      <summary className="cursor-pointer truncate text-muted">
        <span className="font-semibold tracking-wide text-faint uppercase">config</span> {short.join(' · ')}
      </summary>
      <dl className="mt-1.5 grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-0.5">
        {lines.map((line) => (
          <div
            key={line.label}
            className="contents"
            data-testid={`config-${line.label.replace(/\W+/g, '-')}`}
          >
            <dt className="text-faint">{line.label}</dt>
            <dd className={`font-mono break-words ${line.changed ? 'text-takeover' : 'text-fg'}`}>
              {line.value}
            </dd>
          </div>
        ))}
      </dl>
      <div className="my-1.5 flex items-center gap-3">
        <CopyButton
          testId="copy-config"
          text={() => JSON.stringify(config, null, 2)}
          title="the exact config, as POST /api/runs and the CLI's --config take it"
        >
          Copy as JSON
        </CopyButton>
        <JsonView value={config} label="the config JSON" />
      </div>
    </details>
  );
}
