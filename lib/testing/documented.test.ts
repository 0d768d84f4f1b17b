import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PRESETS, RunEventSchema } from '@/lib/protocol';
import { MODULE_ABOUT } from '@/lib/mechanisms/modules/about';
import { MODULE_TOOLS_CONFIG } from '@/lib/mechanisms/modules/protocol';

/**
 * Nothing goes undocumented: every event type of the run log has its row in docs/events.md, and
 * every field of the recovery config its place in docs/config.md, or, for a mechanism module's
 * own, in the README.md of its folder (lib/mechanisms/<id>/, named by the module's id).
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string): string => readFileSync(`${ROOT}${file}`, 'utf8');
const readmeOf = (id: string): string => `lib/mechanisms/${id}/README.md`;

/** An event is documented by a table row that starts with its type. */
const hasEventRow = (doc: string, type: string): boolean =>
  doc.split('\n').some((line) => line.startsWith(`| \`${type}\` |`));

/**
 * A field is documented as `section.key`, or as `key` on a table row that names another field
 * of its section as `section.…` (`retry.baseDelayMs` / `maxDelayMs`).
 */
function hasField(doc: string, section: string | undefined, key: string): boolean {
  if (section === undefined) return doc.includes(`\`${key}\``);
  if (doc.includes(`\`${section}.${key}\``)) return true;
  return doc
    .split('\n')
    .some((line) => line.startsWith('|') && line.includes(`\`${section}.`) && line.includes(`\`${key}\``));
}

/** The recovery config's fields, `section.key` (or a top-level `key`), as every preset has them. */
function recoveryFields(): { section?: string; key: string }[] {
  return Object.entries(PRESETS.codesmith).flatMap(([section, value]) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.keys(value).map((key) => ({ section, key }))
      : [{ key: section }],
  );
}

describe('every event and config field is documented, in docs/ or in its module folder', () => {
  it("each module's folder, named by its id, has a README.md", () => {
    for (const about of MODULE_ABOUT) expect(existsSync(`${ROOT}${readmeOf(about.mechanism.id)}`)).toBe(true);
  });

  it("every event type of the run log has a row in docs/events.md or in its module's README.md", () => {
    const docs = read('docs/events.md');
    const owner = new Map(
      MODULE_ABOUT.flatMap((about) => Object.keys(about.events).map((type) => [type, about.mechanism.id])),
    );
    const types = RunEventSchema.options.map((o) => o.shape.event.value as string);
    expect(types.length).toBeGreaterThan(30);
    const missing = types.filter((type) => {
      const id = owner.get(type);
      return !hasEventRow(docs, type) && !(id !== undefined && hasEventRow(read(readmeOf(id)), type));
    });
    expect(missing, `events with no row in docs/events.md nor in their module's README.md`).toEqual([]);
  });

  it("every field of the recovery config is in docs/config.md or in its module's README.md", () => {
    const docs = read('docs/config.md');
    // A module's field belongs to the module whose control field names it.
    const owner = new Map(
      MODULE_ABOUT.flatMap((about) => about.fields.map((f) => [`${f.section}.${f.key}`, about.mechanism.id])),
    );
    // A module field with no control field (absent from every preset, e.g. structured answers'):
    // documented in docs/config.md or in one of the modules' READMEs all the same.
    const readmes = MODULE_ABOUT.map((about) => read(readmeOf(about.mechanism.id)));
    const unowned = Object.keys(MODULE_TOOLS_CONFIG).filter((key) => !owner.has(`tools.${key}`));
    expect(
      unowned.filter(
        (key) => !hasField(docs, 'tools', key) && !readmes.some((r) => hasField(r, 'tools', key)),
      ),
      'module config fields documented nowhere',
    ).toEqual([]);
    const fields = recoveryFields();
    expect(fields.length).toBeGreaterThan(60);
    const missing = fields
      .filter(({ section, key }) => {
        const id = section === undefined ? undefined : owner.get(`${section}.${key}`);
        return (
          !hasField(docs, section, key) && !(id !== undefined && hasField(read(readmeOf(id)), section, key))
        );
      })
      .map(({ section, key }) => (section === undefined ? key : `${section}.${key}`));
    expect(missing, `fields in neither docs/config.md nor their module's README.md`).toEqual([]);
  });
});
