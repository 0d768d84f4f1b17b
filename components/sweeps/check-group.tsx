/** A row of checkboxes choosing a subset of values (at least one unless `allowNone`). */
export function CheckGroup<T extends string>({
  label,
  options,
  value,
  onChange,
  allowNone = false,
  testId,
}: {
  label: string;
  options: readonly { id: T; label: string; title?: string }[];
  value: readonly T[];
  onChange: (next: T[]) => void;
  allowNone?: boolean;
  testId?: string;
}) {
  return (
    <fieldset className="flex flex-col gap-1" data-testid={testId}>
      <legend className="mb-1 text-2xs font-medium text-muted">{label}</legend>
      <div className="flex flex-wrap gap-x-3 gap-y-1">
        {options.map((option) => {
          const checked = value.includes(option.id);
          return (
            <label key={option.id} className="flex items-center gap-1 text-xs" title={option.title}>
              <input
                type="checkbox"
                checked={checked}
                disabled={checked && !allowNone && value.length === 1}
                onChange={() =>
                  onChange(checked ? value.filter((v) => v !== option.id) : [...value, option.id])
                }
              />
              {option.label}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
