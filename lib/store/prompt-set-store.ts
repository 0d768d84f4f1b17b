import type { PromptSet, RunConfig, SavePromptSetBody } from '@/lib/protocol';

/** Named, versioned prompt sets, beside the runs that used them. */
export interface PromptSetStore {
  /** Saves the texts as the next version of `name` (version 1 when the name is new). */
  savePromptSet(body: SavePromptSetBody): Promise<PromptSet>;
  getPromptSet(name: string, version: number): Promise<PromptSet | undefined>;
  /** Every version of every set, newest first. */
  listPromptSets(): Promise<PromptSet[]>;
  close(): Promise<void>;
}

/**
 * Whether a config's prompts are the ones of the set version it names, so a run that says it
 * used "terse v2" did. Returns the problem lines (empty: it matches or names no set).
 */
export async function checkPromptSetRef(options: {
  config: RunConfig;
  store: Pick<PromptSetStore, 'getPromptSet'>;
}): Promise<string[]> {
  const ref = options.config.promptSet;
  if (!ref) return [];
  const set = await options.store.getPromptSet(ref.name, ref.version);
  if (!set) return [`promptSet: there is no saved prompt set "${ref.name}" version ${ref.version}`];
  const { config } = options;
  const differs: string[] = [];
  if ((config.system ?? '') !== set.system) differs.push('system');
  if ((config.task ?? '') !== set.task) differs.push('task');
  if (!sameRecord(config.toolDescriptions ?? {}, set.toolDescriptions)) differs.push('toolDescriptions');
  if (differs.length === 0) return [];
  return [
    `promptSet: ${differs.join(', ')} ${differs.length === 1 ? 'differs' : 'differ'} from "${ref.name}" v${ref.version}; save them as a new version, or leave promptSet out`,
  ];
}

function sameRecord(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}
