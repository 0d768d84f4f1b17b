// Stands in for 'server-only' under vitest and the CLI, where there is no client bundle to guard.
export {};
