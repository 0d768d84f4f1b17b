import type { Lesson } from '../lesson';

const BACKOFF_MS = 500;
const MAX_RECONNECTS = 3;

export const mcpReconnect: Lesson = {
  slug: 'mcp-reconnect',
  title: 'MCP: a tool server that crashes mid-call',
  mechanism: 'mcp-reconnect',
  failure: 'The MCP server the run takes its file tools from is killed in the middle of a call.',
  config: {
    provider: { vendor: 'sim-anthropic' },
    preset: 'codesmith',
    seed: 1,
    mcp: {
      servers: [{ name: 'ws', shipped: 'workspace', transport: 'stdio' }],
      faults: [{ id: 'kill', kind: 'crash', server: 'ws', onCall: 2, times: 1 }],
      recovery: { reconnect: true, maxReconnects: MAX_RECONNECTS, backoffMs: BACKOFF_MS, relist: true },
    },
  },
  timeScale: 1,
  text: {
    happens:
      'The run’s list_files, read_file and write_file come from the shipped MCP workspace server, a process of its own on stdio. While it runs the second call, read_file of README.md, the process is killed (SIGKILL): the call never answers and the server is not there any more.',
    does: `The client answers the cut call with an error saying the server was restarted and anything the call did was undone, waits ${BACKOFF_MS} ms of run time, starts the server again (try 1 of ${MAX_RECONNECTS}) and lists its tools again: the same 3. The model sends read_file of README.md again and it answers.`,
    costs: `On: ${BACKOFF_MS} ms of backoff and 1 failed call; the model reads src/slugify.js, fixes it and the task verdict says done. Off: the server is gone for the rest of the run; the cut call and every later call to its tools that the loop guard does not block are answered so — 6 times — until the model stops without having read src/slugify.js: task not done.`,
  },
  expect: {
    on: {
      reason: 'end_turn',
      complete: true,
      says: 'the server is started again and its tools re-listed: task done',
    },
    off: {
      reason: 'end_turn',
      complete: true,
      says: 'the server is gone; every call to its tools fails: task not done',
    },
  },
  criterion: {
    says: 'the work gets done when a tool server crashes once, with fewer failed tool calls',
    lines: { verdict: 'high', failedToolRuns: 'low' },
  },
  diverges: { turn: 2, on: 'mechanism_decision' },
};
