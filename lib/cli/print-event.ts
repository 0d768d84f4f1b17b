import { isModuleEvent, moduleWords } from '@/lib/mechanisms/modules/about';
import type { RunEvent } from '@/lib/protocol';
import { formatMs } from '@/lib/protocol/format-duration';
import { verdictTestsLabels } from '@/lib/protocol/verdict-words';

/** One readable line for the events a person follows in a terminal; undefined for the rest. */
export function describeEvent(event: RunEvent): string | undefined {
  const t = `${(event.ts / 1000).toFixed(1).padStart(7)}s`;
  // A sub-agent's event: its own line (none for the ones a terminal does not follow), marked with the child.
  if (event.event === 'subagent_event') {
    const inner = {
      ...event.inner,
      run_id: event.run_id,
      seq: event.seq,
      ts: event.ts,
    } as unknown as RunEvent;
    const line = describeEvent(inner);
    return line && `${t}  [${event.child}] ${line.slice(t.length).trimStart()}`;
  }
  if (isModuleEvent(event)) return `${t}  #${event.iteration}   ${moduleWords(event).line(event)}`;
  switch (event.event) {
    case 'run_start':
      return `${t}  run ${event.run_id} · ${event.vendor} ${event.model} · ${event.scenario.title} · preset ${event.config.preset} · seed ${event.config.seed}`;
    case 'llm_call':
      return `${t}  #${event.iteration} ${event.background ? `[${event.purpose ?? 'background'}] ` : ''}${event.model ?? ''} ${event.stop_reason}${event.partial ? ' (partial)' : ''} · ${event.input_tokens}→${event.output_tokens} tok · ${event.latency_ms} ms · $${event.usd_so_far.toFixed(4)}`;
    case 'tool_call':
      return `${t}  #${event.iteration}   ${event.is_error ? '✗' : '✓'} ${event.tool}(${short(JSON.stringify(event.args ?? {}))}) → ${event.result_chars} chars${event.status && event.status !== 'ok' ? ` [${event.status}]` : ''}${event.repaired ? ' [repaired]' : ''}`;
    case 'arg_repair':
      return `${t}  #${event.iteration}   repair ${event.rung} ${event.tool}: ${event.why}`;
    case 'mechanism_decision':
      return `${t}  #${event.iteration}   ${event.mechanism} ${event.decision} → ${event.next}: ${event.why}`;
    case 'model_error':
      return `${t}  #${event.iteration}   error (attempt ${event.attempt}): ${event.category} · ${event.rule} · ${short(event.message)}`;
    case 'retry_scheduled':
      return `${t}  #${event.iteration}   ${event.rung.replace('_', ' ')}: attempt ${event.next_attempt} of ${event.max_attempts} in ${formatMs(event.wait_ms)} (${event.reason})`;
    case 'retry_declined':
      return `${t}  #${event.iteration}   ${event.why}`;
    case 'watchdog_fired':
      return `${t}  #${event.iteration}   watchdog fired after ${formatMs(event.window_ms)} idle: ${event.outcome}`;
    case 'fallback':
      return `${t}  #${event.iteration}   fallback ${event.from_model} → ${event.to_model} (${event.reason})`;
    case 'output_recovery':
      return `${t}  #${event.iteration}   output ${event.action.replace('_', ' ')}: ${event.reason}`;
    case 'swap':
      return `${t}  #${event.iteration} swap ${event.from_vendor}/${event.from_model} → ${event.to_vendor}/${event.to_model} (${event.cause}${event.reason ? `: ${event.reason}` : ''})`;
    case 'takeover_report': {
      const asIs = event.as_is?.length ?? 0;
      if (event.handling.naive) {
        return `${t}  #${event.iteration}   naive takeover to ${event.dialect}: history sent as it was (${asIs} kinds as they were, ${event.dropped.length} dropped)`;
      }
      const naive = event.naive
        ? event.naive.accepted
          ? 'naive rendering would be accepted'
          : `naive rendering would get ${event.naive.status}: ${short(event.naive.message ?? '')}`
        : 'naive rendering not probed (real vendor)';
      return `${t}  #${event.iteration}   takeover to ${event.dialect}: ${event.dropped.length} dropped, ${event.converted.length} kinds converted${asIs > 0 ? `, ${asIs} kinds as they were` : ''} · ${naive}`;
    }
    case 'takeover_outcome': {
      const error = [event.status, event.vendor_type].filter((x) => x !== undefined).join(' ');
      const answer =
        event.outcome === 'accepted'
          ? 'accepted'
          : `${event.outcome}${error ? ` ${error}` : ''}: ${short(event.message ?? '')}`;
      return `${t}  #${event.iteration}   first request on ${event.vendor}/${event.model} after the swap: ${answer}`;
    }
    case 'off_recording':
      return `${t}  off the recording at request ${event.request_no}: ${event.differs} — ${event.why}`;
    case 'fault_injected':
      return `${t}  fault: ${event.label}`;
    case 'tool_guard':
      return `${t}  #${event.iteration}   guard ${event.kind} ${event.tool}: ${event.reason}`;
    case 'control':
      return `${t}  control: ${event.action}${event.detail ? ` (${event.detail})` : ''}`;
    case 'paused':
      return `${t}  paused: ${event.reason} — ${event.at}`;
    case 'resumed_after_restart':
      return `${t}  resumed after restart at turn ${event.at_turn} (${event.replayed} stored events re-executed): ${event.next}`;
    case 'resumed':
      return `${t}  ${event.action} (by ${event.by}): ${event.next}`;
    case 'tool_approval':
      return `${t}  #${event.iteration}   ${event.tool} ${event.decision} by ${event.by} (${event.reason}): ${event.next}`;
    case 'fork_edit':
      return `${t}  #${event.iteration}   edited by ${event.by}: ${event.where}; ${event.next}`;
    case 'task_verdict': {
      const edited = event.tests_edited?.length
        ? ` · test edited by the model: ${event.tests_edited.join(', ')} (judged ${event.tests_run === 'workspace' ? 'as edited' : 'as shipped'})`
        : '';
      const tests = verdictTestsLabels(event)
        .map((label) => ` · ${label}`)
        .join('');
      const scorers = (event.scorers ?? [])
        .map(
          (s) => `\n${t}    ${s.passed === true ? '✓' : s.passed === false ? '✗' : '?'} ${s.id}: ${s.reason}`,
        )
        .join('');
      return `${t}  task verdict: ${event.verdict.replace('_', ' ')} (${event.check})${edited}${tests}${scorers}`;
    }
    case 'terminate':
      return `${t}  terminate: ${event.reason} · complete ${event.complete}${event.message ? ` · ${event.message}` : ''}`;
    default:
      return undefined;
  }
}

function short(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
