import { FAULT_TOGGLES } from '@/lib/client/forms/fault-catalog';
import { countOf, formatTokens, formatUsd } from '@/lib/run-view/format';
import { categoryLabel, PRESET_LABELS, RunConfigSchema } from '@/lib/protocol';
import type { ReadmePicture } from './pictures';
import type { FailedAttempt } from './run-facts';

/** The preset and scenario a run gets when its config names none. */
const DEFAULTS = RunConfigSchema.parse({ provider: { vendor: 'sim-anthropic' } });

/**
 * A picture's caption, written from its run and its facts only, so it claims nothing the
 * test (pictures.test.ts) does not check against the run's events.
 */
export function captionOf(picture: ReadmePicture): string {
  const { run, facts } = picture;
  const faults = run.faults.map((id) => FAULT_TOGGLES.find((t) => t.id === id)?.label ?? id).join(' + ');
  const preset = `${PRESET_LABELS[run.preset]}${run.preset === DEFAULTS.preset ? ' (the default preset)' : ''}`;
  const scenario = run.scenario === DEFAULTS.scenario ? '' : `, scenario ${run.scenario}`;
  const verdict = facts.verdict ? `, task ${facts.verdict.replace('_', ' ')}` : '';
  const head = `${preset}${scenario} on ${run.vendor}, faults ${faults || 'none'}, seed ${run.seed} → ${facts.outcome} (\`${facts.reason}\`)${verdict}.`;
  // The run header's figures, in its words (components/timeline/run-header.tsx): the picture shows the same.
  const totals = `${countOf(facts.turns, 'turn')}, ${formatTokens(facts.inputTokens)} tokens in and ${formatTokens(facts.outputTokens)} out, ${formatUsd(facts.usd)}.`;
  const retried = facts.failures.filter((f) => f.retried);
  const notRetried = facts.failures.filter((f) => !f.retried);
  const attempts = `Turn 1 took ${countOf(facts.firstTurnAttempts, 'attempt')}`;
  const parts = [
    ...(retried.length > 0 ? [retriedWords(retried)] : []),
    ...(notRetried.length > 0 ? [`${notRetried.map(failureWords).join(', ')}, not retried`] : []),
  ];
  return `${head} ${totals} ${attempts}${parts.length > 0 ? `: ${parts.join('; ')}` : ''}.`;
}

/** The retried failures and the ladder's rung named once when every retry was on the same one, else after each failure. */
function retriedWords(retried: readonly FailedAttempt[]): string {
  const rungs = [...new Set(retried.map((f) => f.rung))];
  const words = (rung: FailedAttempt['rung']) => (rung ? rung.replace('_', ' ') : 'no');
  if (rungs.length === 1) {
    const on = rungs[0] ? ` on the ladder's ${words(rungs[0])} rung` : '';
    return `${retried.map(failureWords).join(', ')}, ${retried.length > 1 ? 'each ' : ''}retried${on}`;
  }
  return `${retried.map((f) => `${failureWords(f)} (${words(f.rung)} rung)`).join(', ')}, each retried`;
}

function failureWords(failure: FailedAttempt): string {
  const where = failure.iteration === 1 ? '' : `turn ${failure.iteration}: `;
  const watchdog = failure.watchdog
    ? ` (the watchdog's ${failure.watchdog === 'empty' ? 'Empty' : 'Partial'} firing)`
    : '';
  return `${where}${categoryLabel(failure.category)}${watchdog}`;
}

/** What the picture shows (every picture is a run's page), for the image's alt text. */
export function altOf(picture: ReadmePicture): string {
  const { outcome, reason, firstTurnAttempts } = picture.facts;
  const ended =
    outcome === 'completed'
      ? 'completed'
      : `${outcome === 'aborted' ? 'was aborted' : 'failed'} (${reason.replace('_', ' ')})`;
  return `The page of a run that ${ended}: its config line, the header, the waterfall and turn 1's ${firstTurnAttempts} attempt cards`;
}

/** How the README shows a picture: the image, then its caption in italics on a line of its own. */
export function readmeBlock(picture: ReadmePicture): string {
  return `![${altOf(picture)}](${picture.file})\n\n*${captionOf(picture)}*`;
}

/** Where a picture's block is in the README's lines (its image line, and its caption line if it has one). */
export function findPictureBlock(
  lines: readonly string[],
  file: string,
): { at: number; length: number } | undefined {
  const at = lines.findIndex((line) => line.startsWith('![') && line.endsWith(`](${file})`));
  if (at < 0) return undefined;
  const hasCaption = lines[at + 1] === '' && /^\*.*\*$/.test(lines[at + 2] ?? '');
  return { at, length: hasCaption ? 3 : 1 };
}

/** The block the README shows for a picture, as it stands (undefined: it does not show the picture). */
export function pictureBlockIn(readme: string, file: string): string | undefined {
  const lines = readme.split('\n');
  const block = findPictureBlock(lines, file);
  return block ? lines.slice(block.at, block.at + block.length).join('\n') : undefined;
}

/**
 * The README with each picture's block written from the table: the image line linking the
 * picture's file is found (the README decides where a picture goes) and it and the caption
 * line after it are replaced. A picture the README does not show is an error.
 */
export function withPictureBlocks(readme: string, pictures: readonly ReadmePicture[]): string {
  const lines = readme.split('\n');
  for (const picture of pictures) {
    const block = findPictureBlock(lines, picture.file);
    if (!block)
      throw new Error(
        `README.md shows no ${picture.file}: add a line "![…](${picture.file})" where it belongs`,
      );
    lines.splice(block.at, block.length, ...readmeBlock(picture).split('\n'));
  }
  return lines.join('\n');
}
