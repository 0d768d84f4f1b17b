import type { RecoveryConfig } from '@/lib/protocol/recovery';
import type { RetryRuleVerdict } from '@/lib/protocol/retry-rules';
import { retryRulesTable } from '@/lib/protocol/retry-rules-table';

/**
 * A configuration's retry rules as a table: each kind of error, and whether the conversation's
 * and the background calls' accounts retry it, by which rule, with a row's own budget or backoff.
 * Rendered by retryRulesTable from the configuration's retry policy, which the retry accounts
 * decide with, so it shows what the engine does.
 */
export function RetryRulesTable({
  config,
  title = 'retry rules',
  open = false,
}: {
  config: RecoveryConfig;
  title?: string;
  open?: boolean;
}) {
  const table = retryRulesTable(config);
  return (
    <details className="rounded border border-line text-2xs" data-testid="retry-rules" open={open}>
      <summary className="px-2 py-1 font-medium">
        {title}
        {table.policy ? ` · policy ${table.policy}` : ''}
      </summary>
      <div className="flex flex-col gap-1 border-t border-line px-2 py-1.5">
        <table className="w-full border-collapse" data-testid="retry-rules-table">
          <thead>
            <tr className="text-left text-faint">
              <th className="py-0.5 pr-2 font-normal">error</th>
              <th className="py-0.5 pr-2 font-normal">conversation</th>
              <th className="py-0.5 font-normal">background calls</th>
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row) => (
              <tr
                key={`${row.kind.category}${row.kind.lasting ? `/${row.kind.lasting}` : ''}`}
                className="border-t border-line/50 align-top"
                data-testid="retry-rule-row"
                data-category={row.kind.category}
                data-lasting={row.kind.lasting ?? ''}
              >
                <td className="py-0.5 pr-2">{row.label}</td>
                <td className="py-0.5 pr-2">
                  <Cell verdict={row.conversation} side="conversation" terms={row.terms?.conversation} />
                </td>
                <td className="py-0.5">
                  <Cell verdict={row.background} side="background" terms={row.terms?.background} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="text-faint">
          conversation: {table.budgets.conversation}; background calls: {table.budgets.background}.
        </p>
        {table.notes.map((note) => (
          <p key={note} className="text-faint">
            {note}.
          </p>
        ))}
      </div>
    </details>
  );
}

function Cell({
  verdict,
  side,
  terms,
}: {
  verdict: RetryRuleVerdict;
  side: string;
  terms?: string | undefined;
}) {
  return (
    <span
      data-testid={`retry-rule-${side}`}
      data-retried={verdict.retried}
      title={verdict.retried ? verdict.despiteClassifier : verdict.why}
    >
      <span className={verdict.retried ? 'text-ok' : 'text-fail'}>
        {verdict.retried ? 'retried' : 'not retried'}
      </span>
      <span className="text-faint"> · {verdict.by}</span>
      {terms ? <span className="text-faint"> · {terms}</span> : null}
    </span>
  );
}
