import { describe, expect, it } from 'vitest';
import { VirtualClock } from '@/lib/clock';
import type { RecoveryConfig, RunEvent, ToolCallPart } from '@/lib/protocol';
import { ENGINE_MODULES } from '@/lib/mechanisms/modules/engine';
import { EventLog } from './event-log';
import { MechanismHost } from './mechanism-host';
import { RESUME_NOTE, runToolStep, type ToolRunner } from './tool-step';

const READS = new Set(['list_files', 'read_file', 'search']);
const call = (id: string, name: string): ToolCallPart => ({ type: 'tool_call', id, name, argsText: '{}' });

/** A runner whose calls take `ms[id]` of run time; `lost` never return a result, `halt` ends the run. */
function runner(options: {
  clock: VirtualClock;
  ms?: Record<string, number>;
  lost?: string[];
  halt?: string[];
  running?: string[][];
}): ToolRunner {
  const now: string[] = [];
  return {
    parallelSafe: (c) => READS.has(c.name),
    async execute(c) {
      now.push(c.id);
      options.running?.push([...now]);
      await options.clock.sleep(options.ms?.[c.id] ?? 1_000);
      now.splice(now.indexOf(c.id), 1);
      if (options.lost?.includes(c.id)) return {};
      return {
        result: { type: 'tool_result', callId: c.id, content: `done ${c.id}`, isError: false },
        ...(options.halt?.includes(c.id) ? { halt: 'stop' } : {}),
      };
    },
  };
}

/** The built-in mechanism modules on the port, with these tools settings. */
function host(
  tools: { maxParallel: number; repairInterrupted: boolean },
  emit: EventLog['emit'],
): MechanismHost {
  return new MechanismHost(ENGINE_MODULES, {
    clock: new VirtualClock(),
    emit,
    recovery: { tools } as unknown as RecoveryConfig,
  });
}

describe('the tool step', () => {
  it('answers in call order whatever order the calls finish in, and runs a group at once on the run clock', async () => {
    const clock = new VirtualClock();
    const running: string[][] = [];
    const events: RunEvent[] = [];
    const calls = [call('a', 'read_file'), call('b', 'read_file'), call('c', 'list_files')];
    const step = await runToolStep({
      calls,
      runner: runner({ clock, ms: { a: 3_000, b: 1_000, c: 2_000 }, running }),
      mechanisms: host(
        { maxParallel: 4, repairInterrupted: true },
        new EventLog('r', clock, (e) => events.push(e)).emit,
      ),
      signal: new AbortController().signal,
      iteration: 1,
      truncatedRound: false,
    });
    expect(step.message.parts.map((p) => (p.type === 'tool_result' ? p.callId : p.type))).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(running.at(-1)).toEqual(['a', 'b', 'c']);
    expect(clock.now()).toBe(3_000);
    expect(events.map((e) => e.event)).toEqual(['tool_batch']);
  });

  it('answers a dangling call with a synthetic error in its place when the repair is on, and leaves it unanswered when off', async () => {
    for (const repairInterrupted of [true, false]) {
      const clock = new VirtualClock();
      const events: RunEvent[] = [];
      const step = await runToolStep({
        calls: [call('a', 'read_file'), call('b', 'read_file')],
        runner: runner({ clock, lost: ['a'] }),
        mechanisms: host(
          { maxParallel: 4, repairInterrupted },
          new EventLog('r', clock, (e) => events.push(e)).emit,
        ),
        signal: new AbortController().signal,
        iteration: 2,
        truncatedRound: false,
      });
      const shown = step.message.parts.map((p) =>
        p.type === 'tool_result' ? `${p.callId}${p.isError ? '!' : ''}` : p.type === 'text' ? p.text : p.type,
      );
      expect(shown).toEqual(repairInterrupted ? ['a!', 'b', RESUME_NOTE] : ['b', RESUME_NOTE]);
      expect(events.at(-1)).toMatchObject({
        event: 'dangling_calls',
        calls: [{ call_id: 'a', tool: 'read_file' }],
        repaired: repairInterrupted,
      });
    }
  });

  it('stops after the group a halt came from: later calls are not run', async () => {
    const clock = new VirtualClock();
    const step = await runToolStep({
      calls: [call('a', 'edit_file'), call('b', 'read_file')],
      runner: runner({ clock, halt: ['a'] }),
      mechanisms: host({ maxParallel: 4, repairInterrupted: true }, new EventLog('r', clock, () => {}).emit),
      signal: new AbortController().signal,
      iteration: 1,
      truncatedRound: false,
    });
    expect(step.halt).toBe('stop');
    expect(step.message.parts.map((p) => (p.type === 'tool_result' ? p.callId : p.type))).toEqual(['a']);
  });
});
