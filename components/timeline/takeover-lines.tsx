import { countIdentical } from '@/lib/client/run-view/count-identical';
import { Pill } from '@/components/ui/pill';

/** "×5" after a line that appeared five times; nothing after a line that appeared once. */
function Times({ count }: { count: number }) {
  if (count < 2) return null;
  return (
    <span
      className="tabular shrink-0 font-mono text-muted"
      data-testid="takeover-line-count"
      title={`${count} identical lines`}
    >
      ×{count}
    </span>
  );
}

/** What rendering the history for the new vendor dropped: identical lines once, with their count. */
export function DroppedList({ dropped }: { dropped: readonly { kind: string; detail: string }[] }) {
  return (
    <ul className="flex flex-col gap-0.5" data-testid="takeover-dropped">
      {countIdentical(dropped, (d) => `${d.kind}\u0000${d.detail}`).map(({ item, count }) => (
        <li key={`${item.kind}\u0000${item.detail}`} className="flex items-start gap-1">
          <Pill tone="takeover">{item.kind}</Pill>
          <span className="font-mono break-words">{item.detail}</span>
          <Times count={count} />
        </li>
      ))}
    </ul>
  );
}

/** What rendering the history converted to travel: identical lines once, with their count. */
export function CarriedList({ converted }: { converted: readonly string[] }) {
  return (
    <ul className="list-inside list-disc font-mono" data-testid="takeover-carried">
      {countIdentical(converted).map(({ item, count }) => (
        <li key={item}>
          {item} <Times count={count} />
        </li>
      ))}
    </ul>
  );
}

/** What went as it was although a safeguard would have changed it: identical lines once, with their count. */
export function AsIsList({ asIs }: { asIs: readonly string[] }) {
  return (
    <ul className="list-inside list-disc font-mono" data-testid="takeover-as-is">
      {countIdentical(asIs).map(({ item, count }) => (
        <li key={item}>
          {item} <Times count={count} />
        </li>
      ))}
    </ul>
  );
}
