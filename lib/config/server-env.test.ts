import { describe, expect, it } from 'vitest';
import { serverEnv, ServerEnvError } from './server-env';

describe('serverEnv', () => {
  it('gives the defaults when nothing is set, and blank is unset', () => {
    const env = serverEnv({ LOOP_LAB_DATA_DIR: '  ', LOOP_LAB_UNWATCHED_MS: '' });
    expect(env).toMatchObject({
      dataDir: undefined,
      unwatchedMs: 60_000,
      redisUrl: undefined,
      workerRatePerMin: 0,
      sandboxNetns: true,
      customBaseUrls: true,
    });
    expect(env.allowedHosts).toEqual([]);
  });

  it('reads each setting with its type', () => {
    const env = serverEnv({
      LOOP_LAB_DATA_DIR: '/tmp/data',
      LOOP_LAB_UNWATCHED_MS: '5000',
      LOOP_LAB_REDIS_URL: 'redis://127.0.0.1:6379',
      LOOP_LAB_WORKER_RATE_PER_MIN: '30',
      LOOP_LAB_SANDBOX_NETNS: 'OFF',
      LOOP_LAB_CUSTOM_BASE_URLS: 'off',
      LOOP_LAB_ALLOWED_HOSTS: 'a.lan, b.lan  c.lan',
    });
    expect(env).toMatchObject({
      dataDir: '/tmp/data',
      unwatchedMs: 5000,
      redisUrl: 'redis://127.0.0.1:6379',
      workerRatePerMin: 30,
      sandboxNetns: false,
      customBaseUrls: false,
    });
    expect(env.allowedHosts).toEqual(['a.lan', 'b.lan', 'c.lan']);
  });

  it("takes REDIS_URL, the name hosts give a Redis, when LOOP_LAB_REDIS_URL is unset; the project's own name wins", () => {
    expect(serverEnv({ REDIS_URL: 'redis://10.0.0.5:6379' }).redisUrl).toBe('redis://10.0.0.5:6379');
    expect(
      serverEnv({ REDIS_URL: 'redis://10.0.0.5:6379', LOOP_LAB_REDIS_URL: 'redis://127.0.0.1:6380' })
        .redisUrl,
    ).toBe('redis://127.0.0.1:6380');
    expect(() => serverEnv({ REDIS_URL: 'localhost:6379' })).toThrow(/REDIS_URL: must be a redis:\/\//);
  });

  it.each([
    ['LOOP_LAB_UNWATCHED_MS', 'a minute', /LOOP_LAB_UNWATCHED_MS: must be a whole number \(got "a minute"\)/],
    ['LOOP_LAB_UNWATCHED_MS', '0', /LOOP_LAB_UNWATCHED_MS: must be at least 1/],
    ['LOOP_LAB_WORKER_RATE_PER_MIN', '2.5', /LOOP_LAB_WORKER_RATE_PER_MIN: must be a whole number/],
    ['LOOP_LAB_REDIS_URL', 'localhost:6379', /LOOP_LAB_REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/],
    ['LOOP_LAB_SANDBOX_NETNS', 'no', /LOOP_LAB_SANDBOX_NETNS: must be on or off/],
    ['LOOP_LAB_CUSTOM_BASE_URLS', 'false', /LOOP_LAB_CUSTOM_BASE_URLS: must be on or off/],
    ['LOOP_LAB_ROOM_CODE', 'abc', /LOOP_LAB_ROOM_CODE: must be at least 4 characters$/],
    ['LOOP_LAB_ROOM_CODE', 'two words', /LOOP_LAB_ROOM_CODE: must not contain spaces$/],
    ['LOOP_LAB_SESSION_SECRET', 'short', /LOOP_LAB_SESSION_SECRET: must be at least 32 characters/],
    ['LOOP_LAB_ROOM_LIVE_RUNS', '0', /LOOP_LAB_ROOM_LIVE_RUNS: must be at least 1/],
    ['LOOP_LAB_ROOM_RUNS_PER_MIN', 'many', /LOOP_LAB_ROOM_RUNS_PER_MIN: must be a whole number/],
    ['LOOP_LAB_ROOM_SWEEP_RUNS', '1.5', /LOOP_LAB_ROOM_SWEEP_RUNS: must be a whole number/],
    ['LOOP_LAB_MCP_SERVERS', 'files=npx', /^LOOP_LAB_MCP_SERVERS: must be JSON: \{"<name>"/],
    [
      'LOOP_LAB_MCP_SERVERS',
      '{"files": {"cmd": "npx"}}',
      /^LOOP_LAB_MCP_SERVERS: each server is \{"command"/,
    ],
    [
      'LOOP_LAB_MCP_SERVERS',
      '{"Files!": {"url": "http://127.0.0.1:1/mcp"}}',
      /^LOOP_LAB_MCP_SERVERS: "Files!" is not a server name/,
    ],
  ])('refuses a bad %s (%s) naming the variable', (name, value, message) => {
    const read = () => serverEnv({ [name]: value });
    expect(read).toThrow(ServerEnvError);
    expect(read).toThrow(message);
  });

  it('reads the Postgres store from LOOP_LAB_DATABASE_URL, else DATABASE_URL, and never quotes a bad one back', () => {
    expect(serverEnv({}).databaseUrl).toBeUndefined();
    expect(serverEnv({ DATABASE_URL: 'postgres://u:p@db:5432/lab' }).databaseUrl).toBe(
      'postgres://u:p@db:5432/lab',
    );
    expect(
      serverEnv({ DATABASE_URL: 'postgres://u:p@db/a', LOOP_LAB_DATABASE_URL: 'postgresql://u:p@db/b' })
        .databaseUrl,
    ).toBe('postgresql://u:p@db/b');
    const bad = () => serverEnv({ DATABASE_URL: 'mysql://u:hunter2@db/lab' });
    expect(bad).toThrow(/^DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/);
    expect(bad).toThrow(/^(?!.*hunter2)/);
  });

  it('reads the MCP servers the web may name (none when unset), and never quotes a bad value back', () => {
    expect(serverEnv({}).mcpServers).toEqual({});
    expect(
      serverEnv({
        LOOP_LAB_MCP_SERVERS:
          '{"files": {"command": "npx", "args": ["-y", "x"]}, "docs": {"url": "http://127.0.0.1:8931/mcp"}}',
      }).mcpServers,
    ).toEqual({ files: { command: 'npx', args: ['-y', 'x'] }, docs: { url: 'http://127.0.0.1:8931/mcp' } });
    expect(() =>
      serverEnv({ LOOP_LAB_MCP_SERVERS: '{"files": {"command": "x --token=sekret", "x": 1}}' }),
    ).toThrow(/^(?!.*sekret)LOOP_LAB_MCP_SERVERS: /);
  });

  it('reads room mode and its limits, defaults when unset', () => {
    expect(serverEnv({})).toMatchObject({
      roomCode: undefined,
      sessionSecret: undefined,
      roomLimits: { liveRuns: 3, runsPerMinute: 12, sweepRuns: 24 },
    });
    expect(
      serverEnv({
        LOOP_LAB_ROOM_CODE: ' lab-7 ',
        LOOP_LAB_ROOM_LIVE_RUNS: '5',
        LOOP_LAB_ROOM_SWEEP_RUNS: '8',
      }),
    ).toMatchObject({ roomCode: 'lab-7', roomLimits: { liveRuns: 5, runsPerMinute: 12, sweepRuns: 8 } });
  });

  it('does not quote a bad room code or session secret back', () => {
    expect(() => serverEnv({ LOOP_LAB_SESSION_SECRET: 'hunter2-secret' })).toThrow(
      /^LOOP_LAB_SESSION_SECRET: must be at least 32 characters \(e\.g\. `openssl rand -hex 32`\)$/,
    );
  });

  it('ignores variables it does not own', () => {
    expect(() => serverEnv({ OPENAI_API_KEY: 'not a number', LOOP_LAB_OTHER: 'x' })).not.toThrow();
  });
});
