'use client';

import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';

interface OpenGroups {
  isOpen(id: string): boolean;
  setOpen(id: string, open: boolean): void;
}

const OpenGroupsContext = createContext<OpenGroups | undefined>(undefined);

/**
 * Which parameter groups a person has expanded. Held above the per-run store (whose key
 * changes on every Run and remounts the panel), so starting a run keeps them expanded.
 */
export function OpenGroupsProvider({ children }: { children: ReactNode }) {
  const [open, setOpenIds] = useState<ReadonlySet<string>>(() => new Set());
  const value = useMemo<OpenGroups>(
    () => ({
      isOpen: (id) => open.has(id),
      setOpen: (id, next) =>
        setOpenIds((current) => {
          if (current.has(id) === next) return current;
          const copy = new Set(current);
          if (next) copy.add(id);
          else copy.delete(id);
          return copy;
        }),
    }),
    [open],
  );
  return <OpenGroupsContext.Provider value={value}>{children}</OpenGroupsContext.Provider>;
}

/** The open state of one group; without a provider each group keeps its own. */
export function useGroupOpen(id: string): [boolean, (open: boolean) => void] {
  const shared = useContext(OpenGroupsContext);
  const [local, setLocal] = useState(false);
  if (!shared) return [local, setLocal];
  return [shared.isOpen(id), (open) => shared.setOpen(id, open)];
}
