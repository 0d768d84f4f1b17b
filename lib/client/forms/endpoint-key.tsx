'use client';

import { createContext, useContext, useState, type ReactNode } from 'react';

/**
 * The API key typed in the key & endpoint dialog, held in this component tree's memory only:
 * never in the playground form (which the URL mirrors), never in localStorage, never in a
 * URL. It goes with one run request (POST /api/runs) and the server holds it for that run only.
 */
const EndpointKeyContext = createContext<readonly [string, (key: string) => void] | undefined>(undefined);

export function EndpointKeyProvider({ children }: { children: ReactNode }) {
  const state = useState('');
  return <EndpointKeyContext.Provider value={state}>{children}</EndpointKeyContext.Provider>;
}

export function useEndpointKey(): readonly [string, (key: string) => void] {
  const value = useContext(EndpointKeyContext);
  if (!value) throw new Error('useEndpointKey outside EndpointKeyProvider');
  return value;
}
